import { killOnExit, type NodeProcess } from '@pawlink/test-kit';

/** One process of the system under test, as the suite started it. */
export interface BookedProcess {
  /** `shortener`, `images`, `thumbs`, `worker`. */
  role: string;
  proc: NodeProcess;
  startedAt: number;
  /** Set before the suite itself kills or stops it. */
  exitExpected: boolean;
  exit?: { code: number | null; signal: NodeJS.Signals | null; at: number };
}

/** Every service and worker process the suite started, including the ones that ended: their exits and their logs. */
export class ProcessBook {
  readonly entries: BookedProcess[] = [];

  add(role: string, proc: NodeProcess): BookedProcess {
    killOnExit(proc.child);
    const entry: BookedProcess = { role, proc, startedAt: Date.now(), exitExpected: false };
    this.entries.push(entry);
    void proc.exited.then(({ code, signal }) => {
      entry.exit = { code, signal, at: Date.now() };
    });
    return entry;
  }

  /** The suite is about to end this process on purpose. */
  expectExit(proc: NodeProcess): void {
    const entry = this.entries.find((e) => e.proc === proc);
    if (entry) entry.exitExpected = true;
  }

  /** Processes that ended without the suite ending them. */
  unexpectedExits(): BookedProcess[] {
    return this.entries.filter((e) => e.exit !== undefined && !e.exitExpected);
  }

  running(): BookedProcess[] {
    return this.entries.filter((e) => e.exit === undefined);
  }

  /** Stops every process still running (SIGTERM, SIGKILL after `killAfterMs`); their exits count as expected. */
  async stopAll(killAfterMs = 15_000): Promise<void> {
    const running = this.running();
    for (const entry of running) entry.exitExpected = true;
    await Promise.all(running.map((entry) => entry.proc.stop(killAfterMs)));
  }
}
