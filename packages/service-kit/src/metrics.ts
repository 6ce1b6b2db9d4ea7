import type { RequestListener } from 'node:http';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per app instance, so several apps can live in one test process. */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  /**
   * The labelled children per method, route and status: prom-client hashes a label object on
   * every call, which costs more than the rest of a warm redirect; a child is found by one lookup.
   */
  private readonly series = new Map<string, { requests: { inc(): void }; latency: { observe(seconds: number): void } }>();

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { requests: this.requests.labels(labels), latency: this.latency.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.latency.observe(seconds);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * The metrics listener of a service (runService starts it on `<SERVICE>_METRICS_PORT`):
 * `GET /metrics` in Prometheus's text format; anything else 404 1024 or 405 1025.
 */
export function metricsRequestListener(metrics: HttpMetrics): RequestListener {
  const fail = (res: Parameters<RequestListener>[1], status: number, code: number, error: string, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify({ success: false, error, code }));
  };
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      fail(res, 404, 1024, 'Unknown route.');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      fail(res, 405, 1025, 'Method not allowed on this route.', { Allow: 'GET, HEAD' });
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => fail(res, 500, 0, 'There was an internal error while attempting to perform that action.'),
    );
  };
}
