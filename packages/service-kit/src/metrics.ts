import type { RequestListener } from 'node:http';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Readiness } from './dependencies/readiness.js';
import { RequestSeries, requestCountMetric, requestLatencyMetric } from './request-series.js';

const MISNAMED_DEFAULT_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

/** One Prometheus registry per app instance, so several apps can live in one test process. */
export class HttpMetrics {
  readonly registry = new Registry();
  /**
   * Per method, then status, then route: a request costs three Map lookups and a few additions,
   * and builds no key string (issue 37).
   */
  private readonly series = new Map<string, Map<number, Map<string, RequestSeries>>>();
  /** Every series, in the order first observed (what a scrape reads). */
  private readonly allSeries: RequestSeries[] = [];

  /** 429s that a rate limit answered (they name their bucket in `X-RateLimit-Bucket`), by bucket. */
  private readonly refusals = new Counter({
    name: 'pawlink_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429 with X-RateLimit-Bucket), by bucket.',
    labelNames: ['bucket'],
    registers: [this.registry],
  });

  private readiness: Readiness | undefined;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    // prom-client names these gauges `…_total`, a counter's suffix (promtool refuses them); the same
    // totals are `sum(nodejs_active_handles)` and so on, from its by-type gauges.
    for (const name of MISNAMED_DEFAULT_GAUGES) this.registry.removeSingleMetric(name);
    const all = (): Iterable<RequestSeries> => this.allSeries;
    this.registry.registerMetric(
      requestCountMetric('http_requests_total', 'HTTP requests by method, route pattern and status.', all),
    );
    this.registry.registerMetric(
      requestLatencyMetric(
        'http_request_duration_seconds',
        'HTTP request latency by method, route pattern and status.',
        all,
      ),
    );
    const readiness = (): Readiness | undefined => this.readiness;
    new Gauge({
      name: 'pawlink_dependency_up',
      help: 'Whether each dependency answered the readiness check at scrape time (1 up, 0 down), as /ready reports it.',
      labelNames: ['dependency'],
      registers: [this.registry],
      // asked when scraped: the same checks as /ready, each within its own timeout
      async collect() {
        this.reset();
        const report = (await readiness()?.()) ?? {};
        for (const [dependency, state] of Object.entries(report)) this.set({ dependency }, state === 'up' ? 1 : 0);
      },
    });
  }

  /** Reports `readiness` (what `/ready` asks) as `pawlink_dependency_up` at each scrape. */
  trackReadiness(readiness: Readiness): void {
    this.readiness = readiness;
  }

  /** A 429 answered by rate limit `bucket`. */
  refused(bucket: string): void {
    this.refusals.inc({ bucket });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byStatus = this.series.get(method);
    if (byStatus === undefined) this.series.set(method, (byStatus = new Map<number, Map<string, RequestSeries>>()));
    let byRoute = byStatus.get(status);
    if (byRoute === undefined) byStatus.set(status, (byRoute = new Map<string, RequestSeries>()));
    let series = byRoute.get(route);
    if (series === undefined) {
      series = new RequestSeries({ method, route, status: String(status) });
      byRoute.set(route, series);
      this.allSeries.push(series);
    }
    series.observe(seconds);
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
  const fail = (
    res: Parameters<RequestListener>[1],
    status: number,
    code: number,
    error: string,
    headers: Record<string, string> = {},
  ): void => {
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
