import { QueryFailedError, type DataSource } from 'typeorm';
import type { VisitCount } from './pending-visits.repository.js';

/** Rows per multi-row upsert. */
const UPSERT_CHUNK = 500;

const isDuplicateKey = (error: unknown): boolean => error instanceof QueryFailedError && (error.driverError as { errno?: number } | undefined)?.errno === 1062;

/**
 * Counted visits in MySQL: `short_url_visits` (entry pos, UTC day, visits) and the ids of the
 * batches already applied (`short_url_visit_moves`).
 */
export class VisitRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Adds a batch to the days of the entries its codes name, once: false when the batch was applied
   * before (by this instance or another). Codes no entry has any more are dropped.
   */
  async applyBatch(batchId: string, counts: readonly VisitCount[], now: Date): Promise<boolean> {
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.query('INSERT INTO short_url_visit_moves (batch_id, moved_at) VALUES (?, ?)', [batchId, now]);
        const codes = [...new Set(counts.map((c) => c.code))];
        if (codes.length === 0) return;
        const rows: Array<{ pos: number; code: string }> = await manager.query(`SELECT pos, code FROM short_urls WHERE code IN (${codes.map(() => '?').join(',')})`, codes);
        const posOf = new Map(rows.map((r) => [r.code, Number(r.pos)]));
        const values = counts.flatMap((c) => (posOf.has(c.code) ? [[posOf.get(c.code)!, c.day, c.visits] as const] : []));
        for (let i = 0; i < values.length; i += UPSERT_CHUNK) {
          const chunk = values.slice(i, i + UPSERT_CHUNK);
          await manager.query(
            `INSERT INTO short_url_visits (short_url_pos, day, visits) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')} ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits)`,
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
   * What MySQL holds for the entry, read from one snapshot: the total, the days from `since` on
   * (`YYYY-MM-DD` → visits; empty unless asked), and the ids of the batches applied since
   * `appliedSince` (a reader adds a batch it finds in Redis only when it is not among them).
   */
  async snapshot(pos: number, options: { since?: string; appliedSince: Date }): Promise<{ total: number; days: Map<string, number>; applied: Set<string> }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const [row]: Array<{ total: string | number | null }> = await manager.query('SELECT SUM(visits) AS total FROM short_url_visits WHERE short_url_pos = ?', [pos]);
      const applied: Array<{ batch_id: string }> = await manager.query('SELECT batch_id FROM short_url_visit_moves WHERE moved_at >= ?', [options.appliedSince]);
      const days: Array<{ day: string; visits: string | number }> =
        options.since === undefined
          ? []
          : await manager.query("SELECT DATE_FORMAT(day, '%Y-%m-%d') AS day, visits FROM short_url_visits WHERE short_url_pos = ? AND day >= ?", [pos, options.since]);
      return {
        total: Number(row?.total ?? 0),
        days: new Map(days.map((d) => [d.day, Number(d.visits)])),
        applied: new Set(applied.map((a) => a.batch_id)),
      };
    });
  }

  /** Forgets applied batch ids older than `before` (a batch is retried within seconds, never after a day). */
  async pruneMoves(before: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM short_url_visit_moves WHERE moved_at < ? LIMIT 10000', [before]);
  }
}
