import { randomBytes } from 'node:crypto';
import type { LogSink } from '../logger.js';

/** The Redis side of a move: counts waiting to be moved, taken into batches that carry an id. */
export interface PendingBatches<B> {
  /** Takes up to `max` pending entries into batch `batchId`; false when nothing was pending. */
  take(batchId: string, max: number): Promise<boolean>;
  /** Ids of the batches taken and not forgotten yet (this mover's or another's). */
  batches(): Promise<string[]>;
  batch(batchId: string): Promise<B>;
  forget(batchId: string): Promise<void>;
}

/** The MySQL side: a batch is added together with its id in one transaction, so never twice. */
export interface BatchStore<B> {
  /** Adds the batch with its id, once: a batch applied before (by a mover stopped before forgetting it) is skipped. */
  applyBatch(batchId: string, counts: B, at: Date): Promise<unknown>;
  /** Forgets the ids of batches applied before `before`. */
  pruneMoves(before: Date): Promise<void>;
}

export interface BatchMoverOptions<B> {
  pending: PendingBatches<B>;
  store: BatchStore<B>;
  /** Entries per batch. */
  batchSize: number;
  moveMs: number;
  logger: LogSink;
  now: () => number;
  /** Names the counts in the log, e.g. "visit counts". */
  what: string;
}

/** A batch this old is another mover's leftover (it stopped between Redis and MySQL): any mover finishes it. */
const ABANDONED_AFTER_MS = 30_000;
const PRUNE_EVERY_MS = 3_600_000;
/**
 * An applied batch stays in Redis this long before it is forgotten, so a reader that read MySQL
 * just before the batch was applied still finds it in Redis (readers skip batches MySQL has).
 */
export const APPLIED_BATCH_VISIBLE_MS = 10_000;
const APPLIED_IDS_KEPT_MS = 86_400_000;

/** Batch ids start with their creation time, so any instance can tell an abandoned batch. */
const newBatchId = (now: number): string => `${now.toString(36)}-${randomBytes(8).toString('hex')}`;
const createdAt = (batchId: string): number => parseInt(batchId.split('-')[0] ?? '', 36);

/**
 * The last step of counting on a hot path: moves counts from Redis to MySQL every `moveMs`. Takes
 * up to `batchSize` pending entries into a batch (one Redis script), adds the batch to MySQL
 * together with its id (one transaction), then forgets it in Redis APPLIED_BATCH_VISIBLE_MS later.
 * A mover stopped after the transaction leaves a batch that the next one finds already applied;
 * one stopped before it leaves a batch the next applies. So every count that reached Redis is
 * added once, and a Redis flush loses only what had not been moved yet.
 */
export class BatchMover<B> {
  private timer: NodeJS.Timeout | undefined;
  private moving: Promise<void> | undefined;
  private lastPrune = 0;
  /** This mover's batches that failed to apply; retried first. */
  private readonly mine = new Set<string>();
  /** Applied batches → when they may be forgotten. */
  private readonly applied = new Map<string, number>();

  constructor(private readonly options: BatchMoverOptions<B>) {}

  /** One round; one at a time. */
  move(): Promise<void> {
    this.moving ??= this.round()
      .catch((error: unknown) => {
        this.options.logger.warn(`${this.options.what} could not be moved to MySQL; retried next round`, { error });
      })
      .finally(() => {
        this.moving = undefined;
      });
    return this.moving;
  }

  private async round(): Promise<void> {
    const now = this.options.now();
    await this.forgetApplied(now);
    for (const batchId of await this.options.pending.batches()) {
      if (this.applied.has(batchId)) continue;
      if (this.mine.has(batchId) || now - createdAt(batchId) >= ABANDONED_AFTER_MS) await this.apply(batchId);
    }
    for (;;) {
      const batchId = newBatchId(this.options.now());
      if (!(await this.options.pending.take(batchId, this.options.batchSize))) break;
      this.mine.add(batchId);
      await this.apply(batchId);
    }
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      await this.options.store.pruneMoves(new Date(now - APPLIED_IDS_KEPT_MS));
      this.lastPrune = now;
    }
  }

  private async apply(batchId: string): Promise<void> {
    const counts = await this.options.pending.batch(batchId);
    await this.options.store.applyBatch(batchId, counts, new Date(this.options.now()));
    this.mine.delete(batchId);
    this.applied.set(batchId, this.options.now() + APPLIED_BATCH_VISIBLE_MS);
  }

  /** Forgets the applied batches that are due (all of them at `Infinity`). */
  private async forgetApplied(now: number): Promise<void> {
    for (const [batchId, due] of this.applied) {
      if (due > now) continue;
      await this.options.pending.forget(batchId);
      this.applied.delete(batchId);
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.move(), this.options.moveMs);
    this.timer.unref();
  }

  /** Stops the timer after a last round (at shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.moving;
    await this.move();
    // Readers racing a shutdown are not worth keeping batches for: another mover would have to apply them again.
    await this.forgetApplied(Number.POSITIVE_INFINITY).catch((error: unknown) => {
      this.options.logger.warn(`applied ${this.options.what} batches could not be forgotten; the next mover will`, {
        error,
      });
    });
  }
}
