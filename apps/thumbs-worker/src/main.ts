import '@pawlink/service-kit/check-node';
import { startTelemetry } from '@pawlink/service-kit/telemetry';

// Tracing (when OTEL_* asks for it) starts before express, ioredis and mysql2 load, so they are instrumented.
await startTelemetry('thumbs-worker');
await import('./serve.js');
