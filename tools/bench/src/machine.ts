import os from 'node:os';
import type { GeneratorLimit } from './generator.js';
import type { LoadSettings } from './interleave.js';
import { formatRate } from './table.js';
import { WRK_THREADS } from './wrk.js';

/** CPUs and load, so a reader can judge how noisy the numbers are. */
export function describeMachine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  return `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), load average ${load} (1/5/15 min), node ${process.version}`;
}

export function describeSettings(settings: LoadSettings): string {
  return `load: wrk -t${WRK_THREADS} -c${settings.connections} -d${settings.durationSeconds}s --latency, ${settings.rounds} interleaved rounds (Pawlink, ceiling, …) after a ${settings.warmupSeconds}s warm-up each; medians. One wrk thread: on two cores the server under test needs the other.`;
}

export function describeGenerator(limit: GeneratorLimit): string {
  return `generator maximum: ${formatRate(limit.maxRequestsPerSecond)} req/s (wrk against ${limit.reference}); node:http static reply ${formatRate(limit.nodeStaticRequestsPerSecond)} req/s. A row whose faster side reaches 90% of the maximum is reported as generator-bound.`;
}
