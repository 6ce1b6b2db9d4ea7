import {
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { Span as QueueSpan, Telemetry } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';

/*
 * Background work (the shortener's visit mover, circuit probes, BullMQ's stalled checks and polls)
 * must not start traces of its own: a trace starts where a request or a job does. The ioredis and
 * http-client instrumentations have an option for it; mysql2 and BullMQ get these wrappers.
 */

/** Whether `ctx` (the active context by default) holds a span a new one may be a child of. */
export function hasParentSpan(ctx: Context = context.active()): boolean {
  const parent = trace.getSpanContext(ctx);
  return parent !== undefined && isSpanContextValid(parent);
}

/** A tracer whose spans are recorded only under a parent; without one, a non-recording span. */
function parentRequiredTracer(tracer: Tracer): Tracer {
  const startSpan: Tracer['startSpan'] = (name, options, ctx = context.active()) =>
    hasParentSpan(ctx) ? tracer.startSpan(name, options, ctx) : trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
  const startActiveSpan = (name: string, ...rest: unknown[]): unknown => {
    const work = rest.pop() as (span: Span) => unknown;
    const [options, ctx = context.active()] = rest as [SpanOptions | undefined, Context | undefined];
    const span = startSpan(name, options, ctx);
    return context.with(trace.setSpan(ctx, span), work, undefined, span);
  };
  return { startSpan, startActiveSpan };
}

/** `provider`, whose tracers start spans only under a parent (for instrumentations without `requireParentSpan`). */
export function parentRequiredTracerProvider(provider: TracerProvider): TracerProvider {
  return { getTracer: (...args) => parentRequiredTracer(provider.getTracer(...args)) };
}

/** Stands for a span not recorded: it changes no context, so what runs under it sees no parent either. */
const UNRECORDED: QueueSpan = {
  setSpanOnContext: (ctx: unknown) => ctx,
  setAttribute: () => undefined,
  setAttributes: () => undefined,
  addEvent: () => undefined,
  recordException: () => undefined,
  end: () => undefined,
};

/**
 * BullMQ's telemetry (bullmq-otel): a job carries its producer's context in
 * `opts.telemetry.metadata`, a worker's `process` span continues it, and a span with no parent
 * (a poll that found nothing, a stalled check) is not recorded.
 */
export function parentRequiredQueueTelemetry(): Telemetry {
  const otel = new BullMQOtel({ tracerName: 'bullmq' });
  return {
    contextManager: otel.contextManager,
    tracer: {
      startSpan: (name, options, ctx?: Context) =>
        hasParentSpan(ctx ?? context.active()) ? otel.tracer.startSpan(name, options, ctx) : UNRECORDED,
    },
  };
}
