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
