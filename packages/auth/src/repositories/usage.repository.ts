import { QueryFailedError, type DataSource } from 'typeorm';
import { splitUsageField, type UsageCount } from '../services/usage-count.js';

/** Rows per multi-row upsert. */
const UPSERT_CHUNK = 500;

const isDuplicateKey = (error: unknown): boolean => error instanceof QueryFailedError && (error.driverError as { errno?: number } | undefined)?.errno === 1062;

/**
 * Key usage in MySQL (`<DB_PREFIX>auth`): `api_key_usage` (key, UTC day, service, route, count)
 * and the ids of the batches already applied (`api_key_usage_moves`).
 */
export class UsageRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds a batch's counts, once: false when the batch was applied before (by this instance or another). */
  async applyBatch(batchId: string, counts: readonly UsageCount[], now: Date): Promise<boolean> {
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.query('INSERT INTO api_key_usage_moves (batch_id, moved_at) VALUES (?, ?)', [batchId, now]);
        const values = counts.map((c) => {
          const { service, route } = splitUsageField(c.field);
          return [c.keyId, c.day, service, route, c.count] as const;
        });
        for (let i = 0; i < values.length; i += UPSERT_CHUNK) {
          const chunk = values.slice(i, i + UPSERT_CHUNK);
          await manager.query(
            `INSERT INTO api_key_usage (key_id, day, service, route, count) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')} ON DUPLICATE KEY UPDATE count = count + VALUES(count)`,
            chunk.flat(),
          );
        }
      });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /**
   * What MySQL holds for the key from `since` on, read from one snapshot, and the ids of the
   * batches applied since `appliedSince` (a reader adds a batch it finds in Redis only when it is
   * not among them).
   */
  async snapshot(keyId: number, options: { since: string; appliedSince: Date }): Promise<{ counts: UsageCount[]; applied: Set<string> }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const rows: Array<{ day: string; service: string; route: string; count: string | number }> = await manager.query(
        "SELECT DATE_FORMAT(day, '%Y-%m-%d') AS day, service, route, count FROM api_key_usage WHERE key_id = ? AND day >= ?",
        [keyId, options.since],
      );
      const applied: Array<{ batch_id: string }> = await manager.query('SELECT batch_id FROM api_key_usage_moves WHERE moved_at >= ?', [options.appliedSince]);
      return {
        counts: rows.map((r) => ({ keyId, day: r.day, field: `${r.service} ${r.route}`, count: Number(r.count) })),
        applied: new Set(applied.map((a) => a.batch_id)),
      };
    });
  }

  /** Forgets applied batch ids older than `before` (a batch is retried within seconds, never after a day). */
  async pruneMoves(before: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM api_key_usage_moves WHERE moved_at < ? LIMIT 10000', [before]);
  }
}
