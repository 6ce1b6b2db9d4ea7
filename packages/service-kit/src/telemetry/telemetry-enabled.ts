import type { Env } from '../config.js';

/**
 * Traces are on only when an operator names where they go, with the standard variables:
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_TRACES_EXPORTER` (`none` keeps them off, as the spec says).
 */
export function telemetryEnabled(env: Env): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim() ?? '';
  if (exporter !== '') return exporter !== 'none';
  return (env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ?? '') !== '';
}
