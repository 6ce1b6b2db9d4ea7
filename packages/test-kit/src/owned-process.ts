import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';

/** Every process a suite started and has not seen end: killed if the test process ends first. */
const live = new Set<ChildProcess>();
let hooksInstalled = false;

/** SIGKILL to every owned pid (it also ends a paused, SIGSTOPped, process); only pids the suite started are signalled. */
function killAllOwned(): void {
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
 * A SIGTERM, SIGINT or SIGHUP (vitest stopped, Ctrl-C, the terminal gone) ends the test process without its 'exit' event:
 * the owned processes are killed first, then the signal is raised again so that, unless somebody
 * else handles it, the process ends as that signal would have ended it.
 */
const TERMINATING_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

function onTerminatingSignal(signal: NodeJS.Signals): void {
  killAllOwned();
  for (const each of TERMINATING_SIGNALS) process.off(each, onTerminatingSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/**
 * In a worker vitest forked, the IPC channel closing means vitest is gone (a Ctrl-C ends it
 * without ending the worker, which would otherwise run on with the daemons): kill them and exit.
 */
function onParentGone(): void {
  killAllOwned();
  process.exit(1);
}

/**
 * Makes sure `child` does not outlive the test process, whether it exits, crashes, is stopped by
 * SIGTERM, SIGINT or SIGHUP, or loses the vitest that forked it (an interrupted run would otherwise leave daemons on their ports and data
 * directories).
 */
export function killOnExit(child: ChildProcess): void {
  if (!hooksInstalled) {
    hooksInstalled = true;
    process.once('exit', killAllOwned);
    for (const signal of TERMINATING_SIGNALS) process.on(signal, onTerminatingSignal);
    if (process.channel) process.once('disconnect', onParentGone);
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

export const isRunning = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/** Spawns `command` with stdout and stderr appended to `logFile`; the child is killed if the test process ends. */
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

/** The first of /usr/sbin, /usr/bin, … that holds `name` (Debian packages put daemons in /usr/sbin, often off PATH). */
export function findBinary(name: string, debianPackage: string): string {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  throw new Error(
    `${name} not found in /usr/sbin or /usr/bin: install the Debian package ${debianPackage} (scripts/bootstrap.sh does)`,
  );
}
