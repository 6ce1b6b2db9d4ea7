import { processCpuMs } from './process-cpu.js';
import { serverPid } from './processes.js';
import { median } from './stats.js';
import { runWrk, type WrkResult } from './wrk.js';

/** A wrk run and, when the server is a process this benchmark started, its CPU time per request. */
export interface LoadRun extends WrkResult {
  cpuMicrosPerRequest?: number;
}

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
  runs: LoadRun[];
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Bad responses and socket errors over every measured run. */
  errors: number;
  /** Median server CPU per request, when known. */
  cpuMicrosPerRequest?: number;
}

export function summarize(name: string, runs: readonly LoadRun[]): SideSummary {
  const cpu = runs.flatMap((r) => (r.cpuMicrosPerRequest === undefined ? [] : [r.cpuMicrosPerRequest]));
  return {
    ...(cpu.length > 0 ? { cpuMicrosPerRequest: median(cpu) } : {}),
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
export async function interleave(
  sides: readonly LoadSide[],
  settings: LoadSettings,
  onRound?: (round: number, results: LoadRun[]) => void,
): Promise<SideSummary[]> {
  const run = async (side: LoadSide, durationSeconds: number): Promise<LoadRun> => {
    const pid = serverPid(side.url);
    const cpuBefore = pid === undefined ? undefined : await processCpuMs(pid);
    const result = await runWrk({
      url: side.url,
      script: side.script,
      durationSeconds,
      connections: settings.connections,
    });
    const cpuAfter = pid === undefined ? undefined : await processCpuMs(pid);
    if (cpuBefore === undefined || cpuAfter === undefined || result.requests === 0) return result;
    return { ...result, cpuMicrosPerRequest: ((cpuAfter - cpuBefore) * 1000) / result.requests };
  };
  if (settings.warmupSeconds > 0) for (const side of sides) await run(side, settings.warmupSeconds);
  const runs: LoadRun[][] = sides.map(() => []);
  for (let round = 1; round <= settings.rounds; round++) {
    const results: LoadRun[] = [];
    for (const [i, side] of sides.entries()) {
      const result = await run(side, settings.durationSeconds);
      runs[i]!.push(result);
      results.push(result);
    }
    onRound?.(round, results);
  }
  return sides.map((side, i) => summarize(side.name, runs[i]!));
}
