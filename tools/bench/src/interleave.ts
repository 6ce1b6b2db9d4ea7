import { runWrk, type WrkResult } from './wrk.js';
import { median } from './stats.js';

/** A server and the script to load it with. */
export interface LoadSide {
  name: string;
  /** Base URL of the server. */
  url: string;
  /** Lua file from `writeWrkScript`; both sides of a comparison usually share one. */
  script: string;
}

export interface LoadSettings {
  durationSeconds: number;
  rounds: number;
  connections: number;
  /** One unmeasured run per side before the rounds (JIT, caches, connection pools). */
  warmupSeconds: number;
}

/** A side's runs and their medians; each median is taken on its own (the p99 of the median-throughput run is not used). */
export interface SideSummary {
  name: string;
  runs: WrkResult[];
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Bad responses and socket errors over every measured run. */
  errors: number;
}

export function summarize(name: string, runs: readonly WrkResult[]): SideSummary {
  return {
    name,
    runs: [...runs],
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    errors: runs.reduce((sum, r) => sum + r.badResponses + r.socketErrors, 0),
  };
}

/**
 * Runs the sides in turn, round after round (A, B, A, B, …), so background load on a shared
 * machine falls on every side alike, and summarizes each side by its medians. `onRound` sees
 * each round's results in side order.
 */
export async function interleave(sides: readonly LoadSide[], settings: LoadSettings, onRound?: (round: number, results: WrkResult[]) => void): Promise<SideSummary[]> {
  const run = (side: LoadSide, durationSeconds: number): Promise<WrkResult> =>
    runWrk({ url: side.url, script: side.script, durationSeconds, connections: settings.connections });
  if (settings.warmupSeconds > 0) for (const side of sides) await run(side, settings.warmupSeconds);
  const runs: WrkResult[][] = sides.map(() => []);
  for (let round = 1; round <= settings.rounds; round++) {
    const results: WrkResult[] = [];
    for (const [i, side] of sides.entries()) {
      const result = await run(side, settings.durationSeconds);
      runs[i]!.push(result);
      results.push(result);
    }
    onRound?.(round, results);
  }
  return sides.map((side, i) => summarize(side.name, runs[i]!));
}
