import { formatMs, formatRate, formatRatio, formatTable, interleave, ratio, runWrk, writeWrkScript, type BenchContext } from '@pawlink/bench';

/** 1M/1k p99 ratio issue 13 keeps random picks to: their cost must not grow with the category. */
const FLATNESS_TARGET = 1.3;
/** Flatness compares two runs of one server, so shorter runs than the ceiling comparisons will do. */
const MAX_FLATNESS_SECONDS = 3;

const VARIANTS = [
  ['', ''],
  [' sizeLimit=1MB', '?sizeLimit=1MB'],
  [' amount=5', '?amount=5'],
  [' amount=5 sizeLimit=1MB', '?amount=5&sizeLimit=1MB'],
] as const;

export interface FlatnessOptions {
  url: string;
  key: string;
  small: { db: string; count: number };
  large: { db: string; count: number };
}

/**
 * Random picks from a small and a large category on the same server, interleaved: p99 and
 * throughput of the large one against the small one, plus a 100-image bulk request's latency.
 */
export async function measureFlatness(context: Pick<BenchContext, 'settings' | 'workspace' | 'log'>, options: FlatnessOptions): Promise<void> {
  const { settings, workspace, log } = context;
  const headers = { Authorization: options.key };
  const durationSeconds = Math.min(settings.durationSeconds, MAX_FLATNESS_SECONDS);
  const label = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));
  const [smallLabel, largeLabel] = [label(options.small.count), label(options.large.count)];
  log(`flatness: GET /<category> from ${smallLabel} vs ${largeLabel} images, ${settings.rounds} interleaved rounds of ${durationSeconds}s`);
  const rows: string[][] = [];
  for (const [name, query] of VARIANTS) {
    const script = async (db: string): Promise<string> => writeWrkScript(workspace.file(`flat-${db}${query.replace(/\W/g, '_')}.lua`), [{ path: `/${db}${query}`, headers }]);
    const [small, large] = await interleave(
      [
        { name: smallLabel, url: options.url, script: await script(options.small.db) },
        { name: largeLabel, url: options.url, script: await script(options.large.db) },
      ],
      { ...settings, durationSeconds, warmupSeconds: 1 },
    );
    const p99Ratio = ratio(large!.p99Ms, small!.p99Ms);
    const errors = small!.errors + large!.errors;
    rows.push([
      `GET${name}`,
      formatRate(small!.requestsPerSecond),
      formatRate(large!.requestsPerSecond),
      formatMs(small!.p99Ms),
      formatMs(large!.p99Ms),
      formatRatio(p99Ratio),
      formatRatio(ratio(large!.requestsPerSecond, small!.requestsPerSecond)),
      errors > 0 ? `invalid: ${errors} failed requests` : p99Ratio <= FLATNESS_TARGET ? 'met' : 'not met',
    ]);
  }
  const bulk = await runWrk({
    url: options.url,
    script: await writeWrkScript(workspace.file('bulk.lua'), [{ method: 'POST', path: '/bulk', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ [options.large.db]: 100 }) }]),
    durationSeconds,
    connections: 1,
  });
  log();
  log(`${largeLabel} vs ${smallLabel} images (target: p99 ratio ≤ ${FLATNESS_TARGET})`);
  for (const line of formatTable(['request', `${smallLabel} req/s`, `${largeLabel} req/s`, `${smallLabel} p99`, `${largeLabel} p99`, `p99 ${largeLabel}/${smallLabel}`, `req/s ${largeLabel}/${smallLabel}`, 'verdict'], rows)) log(line);
  log(`POST /bulk {"${options.large.db}":100}, 1 connection: ${formatRate(bulk.requestsPerSecond)} req/s, p50 ${formatMs(bulk.p50Ms)}, p99 ${formatMs(bulk.p99Ms)}${bulk.badResponses + bulk.socketErrors > 0 ? ` (${bulk.badResponses + bulk.socketErrors} failed)` : ''}`);
  log();
}
