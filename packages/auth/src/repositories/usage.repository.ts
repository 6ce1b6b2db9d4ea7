import { AppliedBatches, upsertRows } from '@pawlink/service-kit';
import type { DataSource } from 'typeorm';
import { splitUsageField, usageField, type UsageCount } from '../domain/usage-count.rules.js';

/**
 * Key usage in MySQL (`<DB_PREFIX>auth`): `api_key_usage` (key, UTC day, service, route, count)
 * and the ids of the batches already applied (`api_key_usage_moves`), service-kit's AppliedBatches.
 */
export class UsageRepository {
  private readonly moves: AppliedBatches;

  constructor(private readonly dataSource: DataSource) {
    this.moves = new AppliedBatches(dataSource, 'api_key_usage_moves');
  }

  /** Adds a batch's counts, once: false when the batch was applied before (by this instance or another). */
  applyBatch(batchId: string, counts: readonly UsageCount[], now: Date): Promise<boolean> {
    return this.moves.applyOnce(batchId, now, async (manager) => {
      const values = counts.map((c) => {
        const { service, route } = splitUsageField(c.field);
        return [c.keyId, c.day, service, route, c.count] as const;
      });
      await upsertRows(
        manager,
        'api_key_usage (key_id, day, service, route, count)',
        values,
        'count = count + VALUES(count)',
      );
    });
  }

  /**
   * What MySQL holds for the key from `since` on, read from one snapshot, and the ids of the
   * batches applied since `appliedSince` (a reader adds a batch it finds in Redis only when it is
   * not among them).
   */
  async snapshot(
    keyId: number,
    options: { since: string; appliedSince: Date },
  ): Promise<{ counts: UsageCount[]; applied: Set<string> }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const rows: Array<{ day: string; service: string; route: string; count: string | number }> = await manager.query(
        "SELECT DATE_FORMAT(day, '%Y-%m-%d') AS day, service, route, count FROM api_key_usage WHERE key_id = ? AND day >= ?",
        [keyId, options.since],
      );
      return {
        counts: rows.map((r) => ({ keyId, day: r.day, field: usageField(r.service, r.route), count: Number(r.count) })),
        applied: await this.moves.appliedSince(manager, options.appliedSince),
      };
    });
  }

  /** Forgets applied batch ids older than `before`. */
  pruneMoves(before: Date): Promise<void> {
    return this.moves.prune(before);
  }
}
