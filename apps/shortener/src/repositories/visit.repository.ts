import { AppliedBatches, upsertRows } from '@pawlink/service-kit';
import type { DataSource } from 'typeorm';
import type { VisitCount } from './pending-visits.repository.js';

/**
 * Counted visits in MySQL: `short_url_visits` (entry pos, UTC day, visits) and the ids of the
 * batches already applied (`short_url_visit_moves`), service-kit's AppliedBatches.
 */
export class VisitRepository {
  private readonly moves: AppliedBatches;

  constructor(private readonly dataSource: DataSource) {
    this.moves = new AppliedBatches(dataSource, 'short_url_visit_moves');
  }

  /**
   * Adds a batch to the days of the entries its codes name, once: false when the batch was applied
   * before (by this instance or another). Codes no entry has any more are dropped.
   */
  applyBatch(batchId: string, counts: readonly VisitCount[], now: Date): Promise<boolean> {
    return this.moves.applyOnce(batchId, now, async (manager) => {
      const codes = [...new Set(counts.map((c) => c.code))];
      if (codes.length === 0) return;
      const rows: Array<{ pos: number; code: string }> = await manager.query(`SELECT pos, code FROM short_urls WHERE code IN (${codes.map(() => '?').join(',')})`, codes);
      const posOf = new Map(rows.map((r) => [r.code, Number(r.pos)]));
      const values = counts.flatMap((c) => (posOf.has(c.code) ? [[posOf.get(c.code)!, c.day, c.visits] as const] : []));
      await upsertRows(manager, 'short_url_visits (short_url_pos, day, visits)', values, 'visits = visits + VALUES(visits)');
    });
  }

  /**
   * What MySQL holds for the entry, read from one snapshot: the total, the days from `since` on
   * (`YYYY-MM-DD` → visits; empty unless asked), and the ids of the batches applied since
   * `appliedSince` (a reader adds a batch it finds in Redis only when it is not among them).
   */
  async snapshot(pos: number, options: { since?: string; appliedSince: Date }): Promise<{ total: number; days: Map<string, number>; applied: Set<string> }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const [row]: Array<{ total: string | number | null }> = await manager.query('SELECT SUM(visits) AS total FROM short_url_visits WHERE short_url_pos = ?', [pos]);
      const applied = await this.moves.appliedSince(manager, options.appliedSince);
      const days: Array<{ day: string; visits: string | number }> =
        options.since === undefined
          ? []
          : await manager.query("SELECT DATE_FORMAT(day, '%Y-%m-%d') AS day, visits FROM short_url_visits WHERE short_url_pos = ? AND day >= ?", [pos, options.since]);
      return { total: Number(row?.total ?? 0), days: new Map(days.map((d) => [d.day, Number(d.visits)])), applied };
    });
  }

  /** Forgets applied batch ids older than `before`. */
  pruneMoves(before: Date): Promise<void> {
    return this.moves.prune(before);
  }
}
