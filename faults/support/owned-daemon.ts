import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every process this suite started and has not seen end: killed if the test process exits first. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Makes sure `child` does not outlive the test process (a crashed or interrupted run would
 * otherwise leave daemons on their ports). Only the pids the suite started are signalled.
 */
export function killOnExit(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const owned of live) {
        if (owned.pid === undefined) continue;
        try {
          // SIGKILL also ends a paused (SIGSTOP) process.
          process.kill(owned.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** The first of /usr/sbin, /usr/bin that holds `name` (Debian packages put daemons in /usr/sbin, often off PATH). */
export function findBinary(name: string, debianPackage: string): string {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  throw new Error(
    `${name} not found in /usr/sbin or /usr/bin: install the Debian package ${debianPackage} (scripts/bootstrap.sh does)`,
  );
}

const running = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/** How to run one daemon and how to tell it is up. */
export interface DaemonSpec {
  command: string;
  args: readonly string[];
  /** stdout and stderr go here (appended), so a restart keeps the earlier output. */
  logFile: string;
  /** The log that explains a failed start; default `logFile`. */
  diagnosticsFile?: string;
  /** True once the daemon serves (asked every 100 ms while it starts). */
  answers(): Promise<boolean>;
}

/**
 * One daemon binary started by the suite (never through a service manager), addressed only by the
 * pid it got: it can be killed, paused, resumed and started again with the same arguments, so
 * the same port and data directory come back.
 */
export class OwnedDaemon {
  private child: ChildProcess | undefined;

  constructor(
    readonly name: string,
    private readonly spec: DaemonSpec,
  ) {}

  /** Starts the binary (it must not be running) and waits until it answers; throws with its log when it exits or stays silent. */
  async start(timeoutMs: number): Promise<void> {
    if (running(this.child)) throw new Error(`${this.name} is already running (pid ${this.child.pid})`);
    const log = openSync(this.spec.logFile, 'a');
    try {
      const child = spawn(this.spec.command, this.spec.args, { stdio: ['ignore', log, log] });
      killOnExit(child);
      this.child = child;
    } finally {
      closeSync(log);
    }
    const diagnostics = () => readFile(this.spec.diagnosticsFile ?? this.spec.logFile, 'utf8').catch(() => '');
    const deadline = Date.now() + timeoutMs;
    while (!(await this.spec.answers())) {
      if (!running(this.child)) throw new Error(`${this.name} exited while starting:\n${await diagnostics()}`);
      if (Date.now() > deadline)
        throw new Error(`${this.name} did not answer within ${timeoutMs} ms:\n${await diagnostics()}`);
      await sleep(100);
    }
  }

  /** Sends `signal` to the started pid (nothing when it has ended). */
  signal(signal: NodeJS.Signals): void {
    if (running(this.child)) this.child.kill(signal);
  }

  /** Resolves true once the process has ended, false after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<boolean> {
    const child = this.child;
    if (!running(child)) return true;
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

  /** kill -9, and waits until the kernel has reaped it (its port is free again). */
  async kill9(): Promise<void> {
    this.signal('SIGKILL');
    await this.waitForExit(10_000);
  }

  /** A graceful stop (resumed first, in case it was paused), SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!running(this.child)) return;
    this.signal('SIGCONT');
    this.signal('SIGTERM');
    if (!(await this.waitForExit(graceMs))) await this.kill9();
  }
}
