import { randomBytes } from 'node:crypto';
import type { Logger } from '@pawlink/service-kit';
import type { PendingUsageRepository } from '../repositories/pending-usage.repository.js';
import type { UsageRepository } from '../repositories/usage.repository.js';

export interface UsageMoverDeps {
  pending: Pick<PendingUsageRepository, 'take' | 'batches' | 'batch' | 'forget'>;
  usage: Pick<UsageRepository, 'applyBatch' | 'pruneMoves'>;
  moveMs: number;
  logger: Logger;
  now: () => number;
}

/** Key-days per batch. */
const BATCH_KEY_DAYS = 1_000;
/** A batch this old is another mover's leftover (it stopped between Redis and MySQL): any mover finishes it. */
const ABANDONED_AFTER_MS = 30_000;
const PRUNE_EVERY_MS = 3_600_000;
/**
 * An applied batch stays in Redis this long before it is forgotten, so a reader that read MySQL
 * just before the batch was applied still finds it in Redis (readers skip batches MySQL has).
 */
export const APPLIED_USAGE_BATCH_VISIBLE_MS = 10_000;
const APPLIED_IDS_KEPT_MS = 86_400_000;

/** Batch ids start with their creation time, so any instance can tell an abandoned batch. */
const newBatchId = (now: number): string => `${now.toString(36)}-${randomBytes(8).toString('hex')}`;
const createdAt = (batchId: string): number => parseInt(batchId.split('-')[0] ?? '', 36);

/**
 * Moves key usage from Redis to MySQL every `moveMs` (the same scheme as the shortener's visit
 * counts): takes up to 1,000 key-days into a batch (one Redis script), adds the batch to
 * `api_key_usage` together with its id (one transaction), then forgets it in Redis
 * APPLIED_USAGE_BATCH_VISIBLE_MS later. A mover stopped after the transaction leaves a batch the
 * next one finds already applied; one stopped before it leaves a batch the next applies. So every
 * count that reached Redis is added once, and a Redis flush loses only what had not been moved.
 */
export class UsageMoverService {
  private timer: NodeJS.Timeout | undefined;
  private moving: Promise<void> | undefined;
  private lastPrune = 0;
  /** This mover's batches that failed to apply; retried first. */
  private readonly mine = new Set<string>();
  /** Applied batches → when they may be forgotten. */
  private readonly applied = new Map<string, number>();

  constructor(private readonly deps: UsageMoverDeps) {}

  /** One round; one at a time. */
  move(): Promise<void> {
    this.moving ??= this.round()
      .catch((error: unknown) => {
        this.deps.logger.warn('key usage could not be moved to MySQL; retried next round', { error });
      })
      .finally(() => {
        this.moving = undefined;
      });
    return this.moving;
  }

  private async round(): Promise<void> {
    const now = this.deps.now();
    await this.forgetApplied(now);
    for (const batchId of await this.deps.pending.batches()) {
      if (this.applied.has(batchId)) continue;
      if (this.mine.has(batchId) || now - createdAt(batchId) >= ABANDONED_AFTER_MS) await this.apply(batchId);
    }
    for (;;) {
      const batchId = newBatchId(this.deps.now());
      if (!(await this.deps.pending.take(batchId, BATCH_KEY_DAYS))) break;
      this.mine.add(batchId);
      await this.apply(batchId);
    }
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      await this.deps.usage.pruneMoves(new Date(now - APPLIED_IDS_KEPT_MS));
      this.lastPrune = now;
    }
  }

  private async apply(batchId: string): Promise<void> {
    const counts = await this.deps.pending.batch(batchId);
    await this.deps.usage.applyBatch(batchId, counts, new Date(this.deps.now()));
    this.mine.delete(batchId);
    this.applied.set(batchId, this.deps.now() + APPLIED_USAGE_BATCH_VISIBLE_MS);
  }

  /** Forgets the applied batches that are due (all of them at `Infinity`). */
  private async forgetApplied(now: number): Promise<void> {
    for (const [batchId, due] of this.applied) {
      if (due > now) continue;
      await this.deps.pending.forget(batchId);
      this.applied.delete(batchId);
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.move(), this.deps.moveMs);
    this.timer.unref();
  }

  /** Stops the timer after a last round (at shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.moving;
    await this.move();
    await this.forgetApplied(Number.POSITIVE_INFINITY).catch((error: unknown) => {
      this.deps.logger.warn('applied usage batches could not be forgotten; the next mover will', { error });
    });
  }
}
