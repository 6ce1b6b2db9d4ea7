import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type ProxyTracerProvider,
} from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { parentRequiredQueueTelemetry } from './parent-required.js';
import { installTelemetryHooks, type SpanStart } from './telemetry-hooks.js';

/** The tracer of the spans Pawlink's own code starts (a job, its steps). */
const tracer = () => trace.getTracer('pawlink');

/** The context a job's BullMQ metadata (`{"traceparent": …}`) carries, over `base` (which it is without one). */
function parentContext(metadata: string | undefined, base: Context = context.active()): Context {
  if (metadata === undefined) return base;
  try {
    return propagation.extract(base, JSON.parse(metadata) as Record<string, string>);
  } catch {
    return base;
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
    linkToQueuedJob(metadata) {
      const active = trace.getActiveSpan();
      if (!active?.isRecording() || metadata === undefined) return;
      const queued = trace.getSpanContext(parentContext(metadata, ROOT_CONTEXT));
      if (queued && isSpanContextValid(queued)) active.addLink({ context: queued });
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
