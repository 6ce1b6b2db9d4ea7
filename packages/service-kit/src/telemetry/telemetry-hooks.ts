import type { Telemetry } from 'bullmq';

/**
 * What the rest of the code asks of telemetry while it is on. Installed by the tracing start,
 * before the service's modules load; absent when telemetry is off, so the logger adds nothing,
 * shutdown has nothing to flush, a step runs without a span and `@opentelemetry/*` is never
 * loaded. This module imports nothing at run time: worker threads load it.
 */
export interface TelemetryHooks {
  /** The trace and span ids of the span active now, if any. */
  activeSpanIds(): { traceId: string; spanId: string } | undefined;
  /** Runs `work` in a new span, a child of the active span or of `options.parent`. */
  inSpan<T>(name: string, work: () => Promise<T>, options?: SpanStart): Promise<T>;
  /**
   * BullMQ's `telemetry` option (bullmq-otel): a job carries its producer's trace context in
   * `opts.telemetry.metadata`; a queue's own background work (stalled checks, polls) starts no trace.
   */
  readonly bullmq: Telemetry;
  /**
   * Links the active span (a check, a repeated PUT) to the span that queued a job, given the job's
   * `opts.telemetry.metadata`; nothing without one.
   */
  linkToQueuedJob(metadata: string | undefined): void;
  /** Sends the spans ended so far (a worker thread, before BullMQ may end it). */
  flush(): Promise<void>;
  /** Sends the spans still buffered; the last step of a graceful shutdown. */
  shutdown(): Promise<void>;
}

export interface SpanStart {
  /** `consumer` for a job's processing; `internal` (the default) for a step inside one. */
  kind?: 'internal' | 'consumer';
  /** A job's `opts.telemetry.metadata` (BullMQ's propagation format): its span becomes the parent. */
  parent?: string;
  attributes?: Record<string, string | number | boolean>;
}

let installed: TelemetryHooks | undefined;

export function installTelemetryHooks(hooks: TelemetryHooks): void {
  installed = hooks;
}

export function telemetryHooks(): TelemetryHooks | undefined {
  return installed;
}

/** `work` in a span named `name` when telemetry is on; `work` alone, at no cost, when it is off. */
export function inSpan<T>(name: string, work: () => Promise<T>, options?: SpanStart): Promise<T> {
  return installed ? installed.inSpan(name, work, options) : work();
}
