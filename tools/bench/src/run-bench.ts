import { generatorLimit, type GeneratorLimit } from './generator.js';
import { interleave, type LoadSettings } from './interleave.js';
import { describeGenerator, describeMachine, describeSettings } from './machine.js';
import {
  appendResult,
  formatResults,
  judge,
  RESULTS_FILE_ENV,
  type EndpointResult,
  type MeasuredSide,
  type Target,
} from './report.js';
import { loadSettings } from './settings.js';
import { fetchShape, headerDifferences, shapeMismatch } from './shape.js';
import { formatMs, formatRate } from './table.js';
import { createWorkspace, type Workspace } from './workspace.js';
import { writeWrkScript, type WrkRequest } from './wrk-script.js';
import type { LoadRun } from './interleave.js';

/** One endpoint of Pawlink and the ceiling it is held against, loaded with the same requests. */
export interface EndpointBench {
  /** The table's first column, e.g. "GET /:code redirect (1,000 codes)". */
  endpoint: string;
  /** What the ceiling does, e.g. "node:http + Map lookup". */
  ceiling: string;
  /** null: a reference row, measured without a target. */
  target: Target | null;
  pawlinkUrl: string;
  ceilingUrl: string;
  /** Sent in turn, round and round; the first is also the one whose answers are compared. */
  requests: readonly WrkRequest[];
  /**
   * The same I/O served through a bare Express app with our settings (`startCeiling(…, { framework:
   * 'express' })`), measured in the same rounds: a second row, what our own layers cost above the framework.
   */
  framework?: { url: string; target: Target };
  /**
   * Further ceilings measured in the same rounds, as rows without a target (`<endpoint> vs <name>`):
   * e.g. node:http doing all the I/O the contract requires of the endpoint, which bounds what any
   * implementation of it can reach.
   */
  references?: readonly EndpointReference[];
}

/** A further server an endpoint is measured against, as a row without a target (`<endpoint> vs <name>`). */
export interface EndpointReference {
  name: string;
  url: string;
  label: string;
}

/** The label of the second row an endpoint with a framework ceiling gets. */
export const frameworkRowLabel = (endpoint: string): string => `${endpoint} vs framework`;

export interface BenchContext {
  settings: LoadSettings;
  workspace: Workspace;
  generator: GeneratorLimit;
  log: (line?: string) => void;
  /** Runs `cleanup` when the benchmark ends, however it ends (last registered runs first). */
  defer: (cleanup: () => Promise<unknown>) => void;
  /** Measures an endpoint against its ceiling, interleaved, and keeps its row. */
  measure: (bench: EndpointBench) => Promise<EndpointResult>;
}

const log = (line = ''): void => void process.stdout.write(`${line}\n`);

const sideOf = (summary: {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}): MeasuredSide => ({
  requestsPerSecond: summary.requestsPerSecond,
  p50Ms: summary.p50Ms,
  p99Ms: summary.p99Ms,
  errors: summary.errors,
});

const describeCpu = (micros: number | undefined): string =>
  micros === undefined ? '' : ` CPU ${Math.round(micros)} µs/req`;

const describeRun = (r: LoadRun): string =>
  `${formatRate(r.requestsPerSecond)} req/s p50 ${formatMs(r.p50Ms)} p99 ${formatMs(r.p99Ms)}${describeCpu(r.cpuMicrosPerRequest)}${r.badResponses + r.socketErrors > 0 ? ` (${r.badResponses} bad answers, ${r.socketErrors} socket errors)` : ''}`;

async function measureEndpoint(
  bench: EndpointBench,
  context: Omit<BenchContext, 'measure' | 'defer'>,
  results: EndpointResult[],
): Promise<EndpointResult> {
  const { settings, workspace, generator } = context;
  log(`${bench.endpoint} vs ${bench.ceiling}${bench.framework ? ', and vs the framework ceiling' : ''}`);
  const script = await writeWrkScript(workspace.file(`endpoint-${results.length + 1}.lua`), bench.requests);
  const first = bench.requests[0]!;
  const pawlinkShape = await fetchShape(bench.pawlinkUrl, first);
  const ceilings = [
    { name: 'ceiling', url: bench.ceilingUrl, label: bench.ceiling, target: bench.target, endpoint: bench.endpoint },
    ...(bench.framework
      ? [
          {
            name: 'framework',
            url: bench.framework.url,
            label: `bare Express 5 with our settings, ${bench.ceiling.replace(/^node:http \+ /, '')}`,
            target: bench.framework.target,
            endpoint: frameworkRowLabel(bench.endpoint),
          },
        ]
      : []),
    ...(bench.references ?? []).map((reference) => ({
      ...reference,
      target: null,
      endpoint: `${bench.endpoint} vs ${reference.name}`,
    })),
  ];
  const invalid: Array<string | null> = [];
  for (const ceiling of ceilings) {
    const ceilingShape = await fetchShape(ceiling.url, first);
    const mismatch = shapeMismatch(pawlinkShape, ceilingShape);
    invalid.push(mismatch);
    if (mismatch) log(`  answers differ (${ceiling.name}): ${mismatch}`);
    const headers = headerDifferences(pawlinkShape, ceilingShape);
    if (headers.onlyPawlink.length > 0 || headers.onlyCeiling.length > 0) {
      log(
        `  headers only Pawlink sends: ${headers.onlyPawlink.join(', ') || 'none'}; only the ${ceiling.name}: ${headers.onlyCeiling.join(', ') || 'none'}`,
      );
    }
  }
  const sides = await interleave(
    [
      { name: 'Pawlink', url: bench.pawlinkUrl, script },
      ...ceilings.map((ceiling) => ({ name: ceiling.name, url: ceiling.url, script })),
    ],
    settings,
    (round, runs) =>
      log(
        `  round ${round}: ${runs.map((run, i) => `${i === 0 ? 'Pawlink' : ceilings[i - 1]!.name} ${describeRun(run)}`).join(' | ')}`,
      ),
  );
  const pawlink = sides[0]!;
  let firstResult: EndpointResult | undefined;
  for (const [i, ceiling] of ceilings.entries()) {
    const side = sides[i + 1]!;
    const mismatch = invalid[i];
    const result: EndpointResult = {
      endpoint: ceiling.endpoint,
      ceiling: ceiling.label,
      target: ceiling.target,
      pawlink: sideOf(pawlink),
      ceilingSide: sideOf(side),
      generatorMaxRequestsPerSecond: generator.maxRequestsPerSecond,
      ...(pawlink.cpuMicrosPerRequest !== undefined ? { pawlinkCpuMicros: pawlink.cpuMicrosPerRequest } : {}),
      ...(side.cpuMicrosPerRequest !== undefined ? { ceilingCpuMicros: side.cpuMicrosPerRequest } : {}),
      ...(mismatch ? { invalid: mismatch } : {}),
    };
    const judgement = judge(result);
    // A reference bounds what an implementation could reach: say how far, as a share of the ceiling.
    const ofCeiling =
      i > 0 && ceiling.target === null
        ? `; the ${ceiling.name} alone reaches ${(side.requestsPerSecond / sides[1]!.requestsPerSecond).toFixed(2)} of the ceiling`
        : '';
    log(
      `  medians vs ${ceiling.name}: Pawlink ${formatRate(result.pawlink.requestsPerSecond)} req/s${describeCpu(pawlink.cpuMicrosPerRequest)}, ${ceiling.name} ${formatRate(result.ceilingSide.requestsPerSecond)} req/s${describeCpu(side.cpuMicrosPerRequest)} → ${judgement.ratio === null ? judgement.verdict : `${judgement.ratio.toFixed(2)}, p99 ${judgement.p99Ratio?.toFixed(2)}×: ${judgement.verdict}`}${ofCeiling}`,
    );
    results.push(result);
    const file = process.env[RESULTS_FILE_ENV];
    if (file) await appendResult(file, result);
    firstResult ??= result;
  }
  return firstResult!;
}

/**
 * Runs one app's HTTP benchmark: prints the machine and the settings, gets the generator's limit,
 * runs `body`, then the deferred cleanups (also on Ctrl-C), and prints the table of its rows —
 * unless scripts/bench.sh collects rows from several benchmarks and prints them together.
 */
export async function runHttpBench(name: string, body: (context: BenchContext) => Promise<void>): Promise<void> {
  const settings = loadSettings();
  const workspace = await createWorkspace(name);
  const cleanups: Array<() => Promise<unknown>> = [workspace.remove];
  let cleaning: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          process.stderr.write(`cleanup failed: ${(error as Error).message}\n`);
        }
      }
    })());
  const interrupted = (): void => void cleanUp().finally(() => process.exit(130));
  // `on`, not `once`: a second signal during the cleanup joins it (cleanUp runs once).
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  const results: EndpointResult[] = [];
  try {
    log(`== ${name}: Pawlink against its ceilings`);
    log(describeMachine());
    log(describeSettings(settings));
    const { limit: generator, measuredNow } = await generatorLimit(settings, workspace);
    if (measuredNow) log(describeGenerator(generator));
    const context = { settings, workspace, generator, log };
    await body({
      ...context,
      defer: (cleanup) => void cleanups.push(cleanup),
      measure: (bench) => measureEndpoint(bench, context, results),
    });
    if (!process.env[RESULTS_FILE_ENV] && results.length > 0) {
      log();
      for (const line of formatResults(results)) log(line);
    }
  } catch (error) {
    process.stderr.write(`${name} benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanUp();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}
