export { startTelemetry } from './start-telemetry.js';
export { telemetryEnabled } from './telemetry-enabled.js';
