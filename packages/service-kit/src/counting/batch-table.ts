import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import type { PendingOf } from './pending-counts.js';
import { retryWrite } from '../dependencies/retry-write.js';
import { APPLIED_BATCH_VISIBLE_MS } from './batch-mover.js';

/** Rows per multi-row upsert. */
const UPSERT_CHUNK = 500;

const isDuplicateKey = (error: unknown): boolean =>
  error instanceof QueryFailedError && (error.driverError as { errno?: number } | undefined)?.errno === 1062;

/**
 * The MySQL step of counting on a hot path: a batch's rows are written in the transaction that
 * records its id in `movesTable` (`batch_id` primary key, `moved_at`), so a batch is added once
 * however many movers apply it; readers learn from the same table which batches MySQL has.
 */
export class AppliedBatches {
  constructor(
    private readonly dataSource: DataSource,
    private readonly movesTable: string,
  ) {}

  /**
   * Runs `write` in the transaction that records `batchId`; false (nothing written) when it was
   * recorded before. A transaction that failed certification or lost its connection is tried
   * again (retryWrite): one that had committed after all is then found recorded, never added twice.
   */
  async applyOnce(batchId: string, at: Date, write: (manager: EntityManager) => Promise<void>): Promise<boolean> {
    try {
      await retryWrite(() =>
        this.dataSource.transaction(async (manager) => {
          await manager.query(`INSERT INTO ${this.movesTable} (batch_id, moved_at) VALUES (?, ?)`, [batchId, at]);
          await write(manager);
        }),
      );
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Ids of the batches applied since `since`, read in the reader's transaction (its snapshot). */
  async appliedSince(manager: EntityManager, since: Date): Promise<Set<string>> {
    const rows: Array<{ batch_id: string }> = await manager.query(
      `SELECT batch_id FROM ${this.movesTable} WHERE moved_at >= ?`,
      [since],
    );
    return new Set(rows.map((row) => row.batch_id));
  }

  /** Forgets applied batch ids older than `before` (a batch is retried within seconds, never after a day). */
  async prune(before: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${this.movesTable} WHERE moved_at < ? LIMIT 10000`, [before]);
  }
}

/**
 * Which applied batches a reader at `now` must not count again from Redis: any applied within
 * twice APPLIED_BATCH_VISIBLE_MS (an older one is gone from Redis).
 */
export const appliedSinceFor = (now: number): Date => new Date(now - 2 * APPLIED_BATCH_VISIBLE_MS);

/** `INSERT INTO <into> VALUES (…), … ON DUPLICATE KEY UPDATE <onDuplicate>`, 500 rows a statement. */
export async function upsertRows(
  manager: EntityManager,
  into: string,
  rows: ReadonlyArray<readonly unknown[]>,
  onDuplicate: string,
): Promise<void> {
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    const chunk = rows.slice(i, i + UPSERT_CHUNK);
    const row = `(${chunk[0]!.map(() => '?').join(', ')})`;
    await manager.query(
      `INSERT INTO ${into} VALUES ${chunk.map(() => row).join(', ')} ON DUPLICATE KEY UPDATE ${onDuplicate}`,
      chunk.flat(),
    );
  }
}

/**
 * What Redis adds to a reader's MySQL snapshot: the pending counts, and the batches MySQL had not
 * applied when it was read (`applied`). Read in that order, a count is seen once wherever it is on
 * its way, since movers forget applied batches only after APPLIED_BATCH_VISIBLE_MS. Without Redis,
 * nothing: MySQL answers alone (the last seconds of counts are missing), never an error.
 */
export async function countsNotInMysql<C>(redis: Promise<PendingOf<C>>, applied: ReadonlySet<string>): Promise<C[]> {
  const held = await redis.catch(() => undefined);
  if (held === undefined) return [];
  const counts = [...held.pending];
  for (const [batchId, batch] of held.batches) if (!applied.has(batchId)) counts.push(...batch);
  return counts;
}
