import { appendFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { GENERATOR_BOUND_SHARE } from './generator.js';
import { ratio } from './stats.js';
import { formatMs, formatRate, formatRatio, formatTable } from './table.js';

/** What issue 13 asks of an endpoint: throughput at least `minRatio` of its ceiling's, p99 at most `maxP99Ratio` times its ceiling's. */
export interface Target {
  minRatio: number;
  maxP99Ratio?: number;
}

/** One side's medians, as stored and printed. */
export interface MeasuredSide {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** One table row: an endpoint of Pawlink against its ceiling, from one run. */
export interface EndpointResult {
  endpoint: string;
  /** What the ceiling does, for the legend. */
  ceiling: string;
  /** null for a reference row (e.g. the framework's own floor), which is measured but has no target. */
  target: Target | null;
  pawlink: MeasuredSide;
  ceilingSide: MeasuredSide;
  /** The generator's maximum in the same run. */
  generatorMaxRequestsPerSecond: number;
  /** Why the two servers' answers cannot be compared (different status or body shape). */
  invalid?: string;
  /** Median CPU time (user + system) per request of each server process, when it was measured. */
  pawlinkCpuMicros?: number;
  ceilingCpuMicros?: number;
}

export interface Judgement {
  /** Pawlink / ceiling throughput; null when it must not be reported. */
  ratio: number | null;
  /** Pawlink p99 / ceiling p99; null when it must not be reported. */
  p99Ratio: number | null;
  /** "met", "not met (…)", "generator-bound", or "invalid: …". */
  verdict: string;
}

/** Whether the row's ratios may be reported, and whether they meet its target. */
export function judge(result: EndpointResult): Judgement {
  if (result.invalid) return { ratio: null, p99Ratio: null, verdict: `invalid: ${result.invalid}` };
  const errors = result.pawlink.errors + result.ceilingSide.errors;
  if (errors > 0)
    return {
      ratio: null,
      p99Ratio: null,
      verdict: `invalid: ${errors} failed requests (Pawlink ${result.pawlink.errors}, ceiling ${result.ceilingSide.errors})`,
    };
  const fastest = Math.max(result.pawlink.requestsPerSecond, result.ceilingSide.requestsPerSecond);
  if (fastest >= GENERATOR_BOUND_SHARE * result.generatorMaxRequestsPerSecond)
    return { ratio: null, p99Ratio: null, verdict: 'generator-bound' };
  const throughput = ratio(result.pawlink.requestsPerSecond, result.ceilingSide.requestsPerSecond);
  const p99 = ratio(result.pawlink.p99Ms, result.ceilingSide.p99Ms);
  if (result.target === null) return { ratio: throughput, p99Ratio: p99, verdict: 'reference' };
  const missed: string[] = [];
  if (!(throughput >= result.target.minRatio)) missed.push('ratio');
  if (result.target.maxP99Ratio !== undefined && !(p99 <= result.target.maxP99Ratio)) missed.push('p99');
  return { ratio: throughput, p99Ratio: p99, verdict: missed.length === 0 ? 'met' : `not met (${missed.join(', ')})` };
}

export const describeTarget = (target: Target | null): string =>
  target === null
    ? '—'
    : `≥ ${target.minRatio.toFixed(2)}${target.maxP99Ratio === undefined ? '' : `, p99 ≤ ${target.maxP99Ratio}×`}`;

const formatCpu = (micros: number | undefined): string => (micros === undefined ? '—' : String(Math.round(micros)));

/** The table `pnpm bench` prints, then a legend naming each row's ceiling. */
export function formatResults(results: readonly EndpointResult[]): string[] {
  const rows = results.map((r) => {
    const { ratio: throughput, p99Ratio, verdict } = judge(r);
    const bound = verdict === 'generator-bound' ? 'generator-bound' : null;
    return [
      r.endpoint,
      formatRate(r.pawlink.requestsPerSecond),
      formatRate(r.ceilingSide.requestsPerSecond),
      bound ?? formatRatio(throughput),
      formatMs(r.pawlink.p99Ms),
      formatMs(r.ceilingSide.p99Ms),
      bound ?? formatRatio(p99Ratio, '×'),
      formatCpu(r.pawlinkCpuMicros),
      formatCpu(r.ceilingCpuMicros),
      describeTarget(r.target),
      verdict,
    ];
  });
  return [
    ...formatTable(
      [
        'endpoint',
        'Pawlink req/s',
        'ceiling req/s',
        'ratio',
        'p99 Pawlink',
        'p99 ceiling',
        'p99 ratio',
        'CPU µs/req Pawlink',
        'CPU µs/req ceiling',
        'target',
        'verdict',
      ],
      rows,
    ),
    '',
    'ceilings:',
    ...results.map((r) => `  ${r.endpoint}: ${r.ceiling}`),
  ];
}

/** Set by scripts/bench.sh: each benchmark appends its rows here and bench.sh prints one table of them all. */
export const RESULTS_FILE_ENV = 'BENCH_RESULTS_FILE';

export async function appendResult(file: string, result: EndpointResult): Promise<void> {
  await appendFile(file, `${JSON.stringify(result)}\n`);
}

export async function readResults(file: string): Promise<EndpointResult[]> {
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EndpointResult);
}
