export { startTelemetry, startThreadTelemetry } from './start-telemetry.js';
export { telemetryEnabled } from './telemetry-enabled.js';
export { inSpan, telemetryHooks, type SpanStart, type TelemetryHooks } from './telemetry-hooks.js';
