import {
  formatMs,
  formatRate,
  formatRatio,
  formatTable,
  interleave,
  ratio,
  runWrk,
  writeWrkScript,
  type BenchContext,
} from '@pawlink/bench';

/** 1M/1k p99 ratio issue 13 keeps random picks to: their cost must not grow with the category. */
const FLATNESS_TARGET = 1.3;
/** Flatness compares two runs of one server, so shorter runs than the ceiling comparisons will do. */
const MAX_FLATNESS_SECONDS = 3;

/** Ids excluded by the `exclude` variants: the most a request may name, spread over the category. */
const EXCLUDED = 100;

/** [label, query of a category whose sample of ids is given]. */
const VARIANTS: ReadonlyArray<readonly [string, (sample: readonly string[]) => string]> = [
  ['', () => ''],
  [' sizeLimit=1MB', () => '?sizeLimit=1MB'],
  [' amount=5', () => '?amount=5'],
  [' amount=5 sizeLimit=1MB', () => '?amount=5&sizeLimit=1MB'],
  [' type=animated', () => '?type=animated'],
  [' amount=5 type=png sizeLimit=1MB', () => '?amount=5&type=png&sizeLimit=1MB'],
  [` exclude=${EXCLUDED} ids`, (sample) => `?exclude=${sample.slice(0, EXCLUDED).join(',')}`],
  [
    ` amount=5 type=still exclude=${EXCLUDED} ids sizeLimit=1MB`,
    (sample) => `?amount=5&type=still&sizeLimit=1MB&exclude=${sample.slice(0, EXCLUDED).join(',')}`,
  ],
];

export interface FlatnessOptions {
  url: string;
  key: string;
  /** `sample`: ids of the category, spread over it (the `exclude` variants name 100 of them). */
  small: { db: string; count: number; sample: readonly string[] };
  large: { db: string; count: number; sample: readonly string[] };
}

/**
 * Random picks from a small and a large category on the same server, interleaved: p99 and
 * throughput of the large one against the small one, plus a 100-image bulk request's latency.
 */
export async function measureFlatness(
  context: Pick<BenchContext, 'settings' | 'workspace' | 'log'>,
  options: FlatnessOptions,
): Promise<void> {
  const { settings, workspace, log } = context;
  const headers = { Authorization: options.key };
  const durationSeconds = Math.min(settings.durationSeconds, MAX_FLATNESS_SECONDS);
  const label = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));
  const [smallLabel, largeLabel] = [label(options.small.count), label(options.large.count)];
  log(
    `flatness: GET /<category> from ${smallLabel} vs ${largeLabel} images, ${settings.rounds} interleaved rounds of ${durationSeconds}s`,
  );
  const rows: string[][] = [];
  for (const [index, [name, query]] of VARIANTS.entries()) {
    const script = async ({ db, sample }: FlatnessOptions['small']): Promise<string> =>
      writeWrkScript(workspace.file(`flat-${db}-${index}.lua`), [{ path: `/${db}${query(sample)}`, headers }]);
    const [small, large] = await interleave(
      [
        { name: smallLabel, url: options.url, script: await script(options.small) },
        { name: largeLabel, url: options.url, script: await script(options.large) },
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
    script: await writeWrkScript(workspace.file('bulk.lua'), [
      {
        method: 'POST',
        path: '/bulk',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ [options.large.db]: 100 }),
      },
    ]),
    durationSeconds,
    connections: 1,
  });
  log();
  log(`${largeLabel} vs ${smallLabel} images (target: p99 ratio ≤ ${FLATNESS_TARGET})`);
  for (const line of formatTable(
    [
      'request',
      `${smallLabel} req/s`,
      `${largeLabel} req/s`,
      `${smallLabel} p99`,
      `${largeLabel} p99`,
      `p99 ${largeLabel}/${smallLabel}`,
      `req/s ${largeLabel}/${smallLabel}`,
      'verdict',
    ],
    rows,
  ))
    log(line);
  log(
    `POST /bulk {"${options.large.db}":100}, 1 connection: ${formatRate(bulk.requestsPerSecond)} req/s, p50 ${formatMs(bulk.p50Ms)}, p99 ${formatMs(bulk.p99Ms)}${bulk.badResponses + bulk.socketErrors > 0 ? ` (${bulk.badResponses + bulk.socketErrors} failed)` : ''}`,
  );
  log();
}
