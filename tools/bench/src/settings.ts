import type { LoadSettings } from './interleave.js';

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  return value;
}

/** The environment knobs every HTTP benchmark shares: BENCH_DURATION (s), BENCH_ROUNDS, BENCH_CONNECTIONS. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): LoadSettings {
  const durationSeconds = positiveInt(env, 'BENCH_DURATION', 5, 600);
  return {
    durationSeconds,
    rounds: positiveInt(env, 'BENCH_ROUNDS', 3, 100),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 50, 10_000),
    warmupSeconds: Math.min(2, durationSeconds),
  };
}
