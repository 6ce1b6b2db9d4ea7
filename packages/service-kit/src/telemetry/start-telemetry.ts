import { telemetryEnabled } from './telemetry-enabled.js';

/**
 * Starts OpenTelemetry tracing for `service` when the OTEL_* variables ask for it (see
 * docs/observability.md#traces); otherwise does nothing and loads nothing. Must run before the
 * service's own modules load (express, ioredis, mysql2 are instrumented as they are imported), so
 * an entry point awaits this, then imports the service dynamically.
 */
export async function startTelemetry(service: string): Promise<void> {
  if (!telemetryEnabled(process.env)) return;
  const { startTracing } = await import('./tracing.js');
  startTracing(service);
}

/**
 * The same in a worker thread, which has modules of its own: called by a thread only when its
 * process started telemetry (the thread is told so in its workerData).
 */
export async function startThreadTelemetry(service: string): Promise<void> {
  const { startThreadTracing } = await import('./thread-tracing.js');
  startThreadTracing(service);
}
