import { spawn } from 'node:child_process';

/** What one wrk run measured; latencies in milliseconds. */
export interface WrkResult {
  requestsPerSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses outside 2xx and 3xx (wrk's "Non-2xx or 3xx responses"). */
  badResponses: number;
  /** Socket errors of every kind: connect, read, write and timeout. */
  socketErrors: number;
}

export interface WrkRun {
  /** Base URL; the script's paths are relative to its host. */
  url: string;
  /** A Lua file from `writeWrkScript`. */
  script: string;
  durationSeconds: number;
  connections: number;
}

/**
 * One thread: the development machine has two cores and the server under test needs the other.
 * wrk's own limit at one thread is measured by the generator check, not assumed.
 */
export const WRK_THREADS = 1;

const TIME_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function percentileMs(output: string, percent: string): number {
  // "     99%    3.20ms" in the block `--latency` prints
  const match = new RegExp(`^\\s*${percent}(?:\\.0+)?%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm').exec(output);
  if (!match) throw new Error(`wrk output has no ${percent}% latency (was --latency given?)`);
  return Number(match[1]) * TIME_UNITS_MS[match[2]!]!;
}

const countOf = (output: string, pattern: RegExp): number => Number(pattern.exec(output)?.[1] ?? 0);

/** Reads the summary wrk prints with `--latency`; throws when a figure the benchmark needs is missing. */
export function parseWrkOutput(output: string): WrkResult {
  const rate = /^Requests\/sec:\s+([\d.]+)\s*$/m.exec(output);
  if (!rate) throw new Error(`wrk output has no Requests/sec line:\n${output}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSecond: Number(rate[1]),
    requests: countOf(output, /^\s*(\d+) requests in /m),
    p50Ms: percentileMs(output, '50'),
    p99Ms: percentileMs(output, '99'),
    badResponses: countOf(output, /Non-2xx or 3xx responses: (\d+)/),
    socketErrors: socket ? socket.slice(1, 5).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/** Runs `wrk -t1 -c<connections> -d<duration>s --latency -s <script> <url>` as its own process. */
export async function runWrk(run: WrkRun): Promise<WrkResult> {
  const args = [
    `-t${WRK_THREADS}`,
    `-c${run.connections}`,
    `-d${run.durationSeconds}s`,
    '--latency',
    '-s',
    run.script,
    run.url,
  ];
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`could not run wrk (Debian package wrk; scripts/bootstrap.sh installs it): ${error.message}`)),
    );
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`wrk ${args.join(' ')} exited with ${code}: ${stderr.trim() || stdout.trim()}`);
  return parseWrkOutput(stdout);
}
