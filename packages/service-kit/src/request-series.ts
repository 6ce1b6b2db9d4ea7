import type { Metric, MetricObjectWithValues, MetricValue, MetricValueWithName } from 'prom-client';

export type RequestLabels = Record<'method' | 'route' | 'status', string>;

/** Upper bounds (seconds) of the latency histogram's buckets. */
export const LATENCY_BUCKETS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * One method/route/status: its requests and their latencies as plain numbers. The request path
 * only adds to them; they are turned into Prometheus samples when scraped.
 */
export class RequestSeries {
  count = 0;
  sum = 0;
  /** Requests per bucket (not cumulative); the last slot is above every bound. */
  readonly perBucket = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);

  constructor(readonly labels: Readonly<RequestLabels>) {}

  observe(seconds: number): void {
    this.count += 1;
    this.sum += seconds;
    let bucket = 0;
    // a sample equal to a bound belongs to that bound's bucket (`le`), as in prom-client
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket += 1;
    this.perBucket[bucket]! += 1;
  }
}

/**
 * A metric read from the series at scrape time, in prom-client's exported shape, so the registry
 * renders it beside its own metrics (default labels included). prom-client's own Counter and
 * Histogram validate and hash the label set on every `inc`/`observe`, even through a child.
 */
function scrapedMetric(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => Array<MetricValue<string> | MetricValueWithName<string>>,
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: (): Promise<MetricObjectWithValues<MetricValue<string>>> =>
      Promise.resolve({ name, help, type, aggregator: 'sum', values: values() } as unknown as MetricObjectWithValues<
        MetricValue<string>
      >),
  };
  // prom-client's Registry renders any object of this shape; its type only names its own classes.
  return metric as unknown as Metric;
}

export function requestCountMetric(name: string, help: string, series: () => Iterable<RequestSeries>): Metric {
  return scrapedMetric(name, help, 'counter', () =>
    Array.from(series(), (s) => ({ labels: { ...s.labels }, value: s.count })),
  );
}

export function requestLatencyMetric(name: string, help: string, series: () => Iterable<RequestSeries>): Metric {
  return scrapedMetric(name, help, 'histogram', () => {
    const values: MetricValueWithName<string>[] = [];
    for (const s of series()) {
      let cumulative = 0;
      for (const [i, bound] of LATENCY_BUCKETS.entries()) {
        cumulative += s.perBucket[i]!;
        values.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le: bound }, value: cumulative });
      }
      values.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      values.push({ metricName: `${name}_sum`, labels: { ...s.labels }, value: s.sum });
      values.push({ metricName: `${name}_count`, labels: { ...s.labels }, value: s.count });
    }
    return values;
  });
}
