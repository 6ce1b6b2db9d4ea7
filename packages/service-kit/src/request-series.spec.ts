import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestSeries, requestCountMetric, requestLatencyMetric } from './request-series.js';

describe('request series read at scrape time', () => {
  it('renders counts and cumulative buckets in Prometheus text, a sample on a bound inside that bound', async () => {
    const series = new RequestSeries({ method: 'GET', route: '/:code', status: '302' });
    for (const seconds of [0.0005, 0.0007, 0.02, 30]) series.observe(seconds);
    const registry = new Registry();
    registry.setDefaultLabels({ service: 'shortener' });
    registry.registerMetric(requestCountMetric('http_requests_total', 'requests', () => [series]));
    registry.registerMetric(requestLatencyMetric('http_request_duration_seconds', 'latency', () => [series]));
    const text = await registry.metrics();
    const labels = 'method="GET",route="/:code",status="302"';
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain(`http_requests_total{${labels},service="shortener"} 4`);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.0005",service="shortener"} 1`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.001",service="shortener"} 2`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.025",service="shortener"} 3`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="10",service="shortener"} 3`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="+Inf",service="shortener"} 4`);
    expect(text).toContain(`http_request_duration_seconds_count{${labels},service="shortener"} 4`);
    expect(text).toMatch(
      new RegExp(
        `http_request_duration_seconds_sum\\{${labels.replace(/[/:]/g, '\\$&')},service="shortener"\\} 30\\.02`,
      ),
    );
  });
});
