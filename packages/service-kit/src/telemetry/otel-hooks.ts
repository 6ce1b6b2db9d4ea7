import { context, propagation, SpanKind, SpanStatusCode, trace, type ProxyTracerProvider } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { parentRequiredQueueTelemetry } from './parent-required.js';
import { installTelemetryHooks, type SpanStart } from './telemetry-hooks.js';

/** The tracer of the spans Pawlink's own code starts (a job, its steps). */
const tracer = () => trace.getTracer('pawlink');

/** The context a job's BullMQ metadata (`{"traceparent": …}`) carries; the active one without it. */
function parentContext(metadata: string | undefined) {
  if (metadata === undefined) return context.active();
  try {
    return propagation.extract(context.active(), JSON.parse(metadata) as Record<string, string>);
  } catch {
    return context.active();
  }
}

/** The hooks the rest of the code calls while `sdk` (started) records traces. */
export function installOtelHooks(sdk: NodeSDK): void {
  installTelemetryHooks({
    activeSpanIds() {
      const active = trace.getActiveSpan()?.spanContext();
      return active ? { traceId: active.traceId, spanId: active.spanId } : undefined;
    },
    async inSpan<T>(name: string, work: () => Promise<T>, options: SpanStart = {}): Promise<T> {
      const kind = options.kind === 'consumer' ? SpanKind.CONSUMER : SpanKind.INTERNAL;
      const parent = parentContext(options.parent);
      const span = tracer().startSpan(name, { kind, attributes: options.attributes }, parent);
      try {
        return await context.with(trace.setSpan(parent, span), work);
      } catch (error) {
        // The error's class only: messages can hold URLs and details meant for the logs.
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
        throw error;
      } finally {
        span.end();
      }
    },
    bullmq: parentRequiredQueueTelemetry(),
    async flush() {
      const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as {
        forceFlush?: () => Promise<void>;
      };
      await provider.forceFlush?.();
    },
    shutdown: () => sdk.shutdown(),
  });
}
