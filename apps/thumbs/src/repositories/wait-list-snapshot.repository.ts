export interface WaitListSnapshotOptions {
  /** A snapshot older than this is read again before it answers (docs/api.md: how old `time` may be). */
  maxAgeMs: number;
  /**
   * A snapshot younger than this answers even after an event: under a stream of events (a busy
   * queue) the list is read at most once per this, not once per event (10,000 ids cost Redis ~0.8 ms).
   */
  minAgeMs: number;
  /** Unix ms now; the spec moves it. */
  clock: () => number;
}

/** The wait list's ids as read, with the front of the queue (the next job a worker takes) last. */
export type WaitListIds = readonly string[];

interface Snapshot {
  readAt: number;
  /** Job id → waiting jobs a worker takes before it. */
  aheadOf: Map<string, number>;
}

/**
 * This process's view of the thumbnail queue's wait list, for the place of a job in it (the check's
 * and PUT's `time`). Reading the place per request walked the list in Redis (LPOS, O(queue) on every
 * check); this view is read again once it is `maxAgeMs` old, or after `invalidate()` (the queue's
 * events) once it is `minAgeMs` old, one read at a time, shared by every request that asks meanwhile. Only estimates come
 * from it, never a job's state (ADR 0011, "The check's place in the queue from a snapshot").
 */
export class WaitListSnapshot {
  private snapshot: Snapshot | undefined;
  private reading: Promise<Snapshot> | undefined;
  /** Bumped by invalidate(); a read that started before a bump is not fresh when it lands. */
  private generation = 0;
  private freshGeneration = -1;

  constructor(
    private readonly readIds: () => Promise<WaitListIds>,
    private readonly options: WaitListSnapshotOptions,
  ) {}

  /**
   * Waiting jobs a worker takes before `jobId`; null when the job was not in the wait list when it
   * was read. Answered without a promise while the snapshot is fresh (every check asks).
   */
  waitingAhead(jobId: string): number | null | Promise<number | null> {
    const fresh = this.fresh();
    if (fresh) return fresh.aheadOf.get(jobId) ?? null;
    return this.reread().then((snapshot) => snapshot.aheadOf.get(jobId) ?? null);
  }

  /** The queue changed (a job added, taken, finished or removed): the next question reads the list again. */
  invalidate(): void {
    this.generation++;
  }

  private fresh(): Snapshot | undefined {
    const { snapshot } = this;
    if (!snapshot) return undefined;
    const age = this.options.clock() - snapshot.readAt;
    const ageBound = this.freshGeneration === this.generation ? this.options.maxAgeMs : this.options.minAgeMs;
    return age < ageBound ? snapshot : undefined;
  }

  private reread(): Promise<Snapshot> {
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async read(): Promise<Snapshot> {
    const generation = this.generation;
    const readAt = this.options.clock();
    const ids = await this.readIds();
    const aheadOf = new Map<string, number>();
    for (let i = 0; i < ids.length; i++) aheadOf.set(ids[i]!, ids.length - 1 - i);
    this.snapshot = { readAt, aheadOf };
    this.freshGeneration = generation;
    return this.snapshot;
  }
}
