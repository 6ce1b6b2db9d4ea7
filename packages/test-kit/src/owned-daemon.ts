import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRunning, spawnOwned, stopOwned, waitForExit } from './owned-process.js';

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
 * One daemon binary started by a suite (never through a service manager), on the private ports
 * and directories its arguments name, addressed only by the pid it got: it can be killed, paused,
 * resumed and started again with the same arguments, so the same port and data directory come back.
 */
export class OwnedDaemon {
  private child: ChildProcess | undefined;

  constructor(
    readonly name: string,
    private readonly spec: DaemonSpec,
  ) {}

  /** Starts the binary (it must not be running) and waits until it answers; throws with its log when it exits or stays silent. */
  async start(timeoutMs: number): Promise<void> {
    if (isRunning(this.child)) throw new Error(`${this.name} is already running (pid ${this.child.pid})`);
    this.child = spawnOwned(this.spec.command, this.spec.args, this.spec.logFile);
    const diagnostics = () => readFile(this.spec.diagnosticsFile ?? this.spec.logFile, 'utf8').catch(() => '');
    const deadline = Date.now() + timeoutMs;
    while (!(await this.spec.answers())) {
      if (!isRunning(this.child)) throw new Error(`${this.name} exited while starting:\n${await diagnostics()}`);
      if (Date.now() > deadline)
        throw new Error(`${this.name} did not answer within ${timeoutMs} ms:\n${await diagnostics()}`);
      await sleep(100);
    }
  }

  /** Sends `signal` to the started pid (nothing when it has ended). */
  signal(signal: NodeJS.Signals): void {
    if (isRunning(this.child)) this.child.kill(signal);
  }

  /** Resolves true once the process has ended, false after `timeoutMs`. */
  waitForExit(timeoutMs: number): Promise<boolean> {
    return waitForExit(this.child, timeoutMs);
  }

  /** kill -9, and waits until the kernel has reaped it (its port is free again). */
  async kill9(): Promise<void> {
    this.signal('SIGKILL');
    await this.waitForExit(10_000);
  }

  /** A graceful stop (resumed first, in case it was paused), SIGKILL after `graceMs`. */
  stop(graceMs = 10_000): Promise<void> {
    return stopOwned(this.child, graceMs);
  }
}
