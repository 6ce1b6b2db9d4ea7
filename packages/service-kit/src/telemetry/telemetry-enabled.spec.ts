import { describe, expect, it } from 'vitest';
import { telemetryEnabled } from './telemetry-enabled.js';

describe('telemetryEnabled', () => {
  it('is off without an endpoint or an exporter', () => {
    expect(telemetryEnabled({})).toBe(false);
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_TRACES_EXPORTER: '' })).toBe(false);
    expect(telemetryEnabled({ OTEL_SERVICE_NAME: 'pawlink-shortener' })).toBe(false);
  });

  it('is on with an endpoint or an exporter', () => {
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(telemetryEnabled({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(
      telemetryEnabled({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ).toBe(true);
  });

  it('stays off when the exporter is none, whatever the endpoint', () => {
    expect(
      telemetryEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ).toBe(false);
  });
});
