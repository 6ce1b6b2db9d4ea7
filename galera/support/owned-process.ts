import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';

/** Every process the suite started and has not seen end: killed if the test process ends first. */
const live = new Set<ChildProcess>();
let endHooksInstalled = false;

/** SIGKILL also ends a paused (SIGSTOP) process; only pids the suite started are signalled. */
function killLive(): void {
  for (const owned of live) {
    if (owned.pid === undefined) continue;
    try {
      process.kill(owned.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Kills what the suite started when its process exits, and also when it is ended by a signal
 * (vitest ends its worker with SIGTERM, Ctrl-C sends SIGINT), which skips 'exit' hooks. A signal
 * nobody else handles is then raised again, so the process still ends by it. In a worker that
 * vitest forked, the IPC channel closing means vitest is gone (a Ctrl-C ends it without ending
 * the worker, which would otherwise run on with the nodes): the worker then kills them and exits.
 */
function killOnEnd(child: ChildProcess): void {
  if (!endHooksInstalled) {
    endHooksInstalled = true;
    process.once('exit', killLive);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      process.once(signal, () => {
        killLive();
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    }
    if (process.channel)
      process.once('disconnect', () => {
        killLive();
        process.exit(1);
      });
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

export const isRunning = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/** Spawns `command` with stdout and stderr appended to `logFile`; the child is killed if the suite's process ends first. */
export function spawnOwned(
  command: string,
  args: readonly string[],
  logFile: string,
  options: Omit<SpawnOptions, 'stdio'> = {},
): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    const child = spawn(command, args, { ...options, stdio: ['ignore', log, log] });
    killOnEnd(child);
    return child;
  } finally {
    closeSync(log);
  }
}

/** Resolves true once `child` has ended, false after `timeoutMs`. */
export async function waitForExit(child: ChildProcess | undefined, timeoutMs: number): Promise<boolean> {
  if (!isRunning(child)) return true;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  try {
    await once(child, 'exit', { signal: timer.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timeout);
  }
}

/** SIGCONT (in case it is paused) and SIGTERM to the started pid, SIGKILL after `graceMs`. */
export async function stopOwned(child: ChildProcess | undefined, graceMs = 10_000): Promise<void> {
  if (!isRunning(child)) return;
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  if (!(await waitForExit(child, graceMs))) {
    child.kill('SIGKILL');
    await waitForExit(child, 10_000);
  }
}
