/**
 * What the rest of the kit asks of telemetry while it is on. Installed by the tracing start,
 * before the service's modules load; absent when telemetry is off, so the logger adds nothing,
 * shutdown has nothing to flush and `@opentelemetry/*` is never loaded.
 */
export interface TelemetryHooks {
  /** The trace and span ids of the span active now, if any. */
  activeSpanIds(): { traceId: string; spanId: string } | undefined;
  /** Sends the spans still buffered; the last step of a graceful shutdown. */
  shutdown(): Promise<void>;
}

let installed: TelemetryHooks | undefined;

export function installTelemetryHooks(hooks: TelemetryHooks): void {
  installed = hooks;
}

export function telemetryHooks(): TelemetryHooks | undefined {
  return installed;
}
