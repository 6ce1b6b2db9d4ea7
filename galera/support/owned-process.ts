import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';

/** Every process the suite started and has not seen end: killed if the test process exits first. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killOnExit(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const owned of live) {
        // SIGKILL also ends a paused (SIGSTOP) process; only pids the suite started are signalled.
        if (owned.pid !== undefined) {
          try {
            process.kill(owned.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    });
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

export const isRunning = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/** Spawns `command` with stdout and stderr appended to `logFile`; the child is killed if the suite's process exits. */
export function spawnOwned(
  command: string,
  args: readonly string[],
  logFile: string,
  options: Omit<SpawnOptions, 'stdio'> = {},
): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    const child = spawn(command, args, { ...options, stdio: ['ignore', log, log] });
    killOnExit(child);
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
