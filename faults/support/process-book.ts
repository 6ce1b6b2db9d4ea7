import { killOnExit, type NodeProcess } from '@pawlink/test-kit';

/** One process of the system under test, as the suite started it. */
export interface BookedProcess {
  /** `shortener`, `images`, `thumbs`, `worker`. */
  role: string;
  proc: NodeProcess;
  startedAt: number;
  /** Set before the suite itself kills or stops it (never once it has ended: see `expectExit`). */
  exitExpected: boolean;
  /** How it ended; `expected`: whether the suite had said it would end it, as of the moment it did. */
  exit?: { code: number | null; signal: NodeJS.Signals | null; at: number; expected: boolean };
}

const ended = (entry: BookedProcess): boolean =>
  entry.exit !== undefined || entry.proc.child.exitCode !== null || entry.proc.child.signalCode !== null;

/** Every service and worker process the suite started, including the ones that ended: their exits and their logs. */
export class ProcessBook {
  readonly entries: BookedProcess[] = [];

  add(role: string, proc: NodeProcess): BookedProcess {
    killOnExit(proc.child);
    const entry: BookedProcess = { role, proc, startedAt: Date.now(), exitExpected: false };
    this.entries.push(entry);
    const record = (code: number | null, signal: NodeJS.Signals | null): void => {
      entry.exit ??= { code, signal, at: Date.now(), expected: entry.exitExpected };
    };
    // 'exit', not 'close' (which waits for the pipes): what was expected is read the moment it ended.
    if (ended(entry)) record(proc.child.exitCode, proc.child.signalCode);
    else proc.child.once('exit', record);
    return entry;
  }

  /**
   * The suite is about to end this process on purpose. A process that has ended already stays
   * unexpected: a later fault that signals it (the shortener's SIGTERM after it died in the Redis
   * fault) must not turn its death into one the suite caused.
   */
  expectExit(proc: NodeProcess): void {
    const entry = this.entries.find((e) => e.proc === proc);
    if (entry && !ended(entry)) entry.exitExpected = true;
  }

  /** Processes that ended without the suite ending them. */
  unexpectedExits(): BookedProcess[] {
    return this.entries.filter((e) => e.exit !== undefined && !e.exit.expected);
  }

  running(): BookedProcess[] {
    return this.entries.filter((e) => !ended(e));
  }

  /** Stops every process still running (SIGTERM, SIGKILL after `killAfterMs`); their exits count as expected. */
  async stopAll(killAfterMs = 15_000): Promise<void> {
    const running = this.running();
    for (const entry of running) entry.exitExpected = true;
    await Promise.all(running.map((entry) => entry.proc.stop(killAfterMs)));
  }
}
