import { AppliedBatches, upsertRows } from '@pawlink/service-kit';
import type { DataSource, EntityManager } from 'typeorm';
import {
  addTo,
  admitNewValues,
  isCapped,
  isDimension,
  splitField,
  type Dimension,
  type ValueCounts,
} from '../domain/visit-breakdown.rules.js';
import type { VisitCount } from './pending-visits.repository.js';

/** Links per query while a batch learns which breakdown values are stored already. */
const LOOKUP_CHUNK = 200;

/** A breakdown count of a batch, by link: `<pos>\t<day>\t<dimension>` → value → visits. */
type Fresh = Map<string, ValueCounts>;

/** What MySQL holds for an entry, read from one snapshot. */
export interface VisitSnapshot {
  total: number;
  /** `YYYY-MM-DD` → visits, from `since` on. */
  days: Map<string, number>;
  /** Breakdown from `since` on: dimension → value → visits. */
  breakdown: Map<Dimension, ValueCounts>;
  /** Batches applied since `appliedSince`. */
  applied: Set<string>;
}

/**
 * Counted visits in MySQL: `short_url_visits` (entry pos, UTC day, visits), their breakdown
 * `short_url_visit_breakdown` (pos, day, dimension, value, visits), and the ids of the batches
 * already applied (`short_url_visit_moves`, service-kit's AppliedBatches). A batch's visits and
 * breakdown are written in one transaction.
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
      const rows: Array<{ pos: number; code: string }> = await manager.query(
        `SELECT pos, code FROM short_urls WHERE code IN (${codes.map(() => '?').join(',')})`,
        codes,
      );
      const posOf = new Map(rows.map((r) => [r.code, Number(r.pos)]));
      const visits: Array<readonly [number, string, number]> = [];
      const fresh: Fresh = new Map();
      for (const c of counts) {
        const pos = posOf.get(c.code);
        if (pos === undefined) continue;
        if (c.field === '') {
          visits.push([pos, c.day, c.visits]);
          continue;
        }
        const split = splitField(c.field);
        if (split === null) continue;
        const key = `${pos}\t${c.day}\t${split.dimension}`;
        let values = fresh.get(key);
        if (values === undefined) fresh.set(key, (values = new Map<string, number>()));
        addTo(values, split.value, c.visits);
      }
      await upsertRows(
        manager,
        'short_url_visits (short_url_pos, day, visits)',
        visits,
        'visits = visits + VALUES(visits)',
      );
      await this.addBreakdown(manager, fresh);
    });
  }

  /**
   * Adds a batch's breakdown. A value already stored for its link, day and dimension is added to;
   * a new one gets a row while fewer than STORED_VALUES_PER_DAY are stored (the most visited
   * first), else its visits go to `other`. Two movers applying batches at once may each admit the
   * last slot, so a day can hold a few more values than the bound; every visit is counted either way.
   */
  private async addBreakdown(manager: EntityManager, fresh: Fresh): Promise<void> {
    if (fresh.size === 0) return;
    const stored = await this.storedValues(manager, fresh);
    const rows: Array<readonly [number, string, string, string, number]> = [];
    for (const [key, values] of fresh) {
      const [pos, day, dimension] = key.split('\t') as [string, string, Dimension];
      const held = stored.get(key) ?? new Set<string>();
      const added = new Map<string, number>();
      const unseen: ValueCounts = new Map();
      for (const [value, n] of values) {
        if (held.has(value) || !isCapped(dimension)) addTo(added, value, n);
        else addTo(unseen, value, n);
      }
      for (const [value, storedAs] of admitNewValues(unseen, held.size)) addTo(added, storedAs, unseen.get(value)!);
      for (const [value, n] of added) rows.push([Number(pos), day, dimension, value, n]);
    }
    await upsertRows(
      manager,
      'short_url_visit_breakdown (short_url_pos, day, dimension, value, visits)',
      rows,
      'visits = visits + VALUES(visits)',
    );
  }

  /** The values stored for the batch's links and days: `<pos>\t<day>\t<dimension>` → values. */
  private async storedValues(manager: EntityManager, fresh: Fresh): Promise<Map<string, Set<string>>> {
    const positions = new Set<number>();
    const days = new Set<string>();
    for (const key of fresh.keys()) {
      const [pos, day] = key.split('\t');
      positions.add(Number(pos));
      days.add(day!);
    }
    const stored = new Map<string, Set<string>>();
    const all = [...positions];
    for (let i = 0; i < all.length; i += LOOKUP_CHUNK) {
      const chunk = all.slice(i, i + LOOKUP_CHUNK);
      const found: Array<{ pos: number | string; day: string; dimension: string; value: string }> = await manager.query(
        `SELECT short_url_pos AS pos, DATE_FORMAT(day, '%Y-%m-%d') AS day, dimension, value FROM short_url_visit_breakdown
         WHERE short_url_pos IN (${chunk.map(() => '?').join(',')}) AND day IN (${[...days].map(() => '?').join(',')})`,
        [...chunk, ...days],
      );
      for (const row of found) {
        const key = `${Number(row.pos)}\t${row.day}\t${row.dimension}`;
        let values = stored.get(key);
        if (values === undefined) stored.set(key, (values = new Set()));
        values.add(row.value);
      }
    }
    return stored;
  }

  /**
   * What MySQL holds for the entry, read from one snapshot: the total, the days and the breakdown
   * from `since` on (empty unless asked), and the ids of the batches applied since `appliedSince`
   * (a reader adds a batch it finds in Redis only when it is not among them).
   */
  async snapshot(pos: number, options: { since?: string; appliedSince: Date }): Promise<VisitSnapshot> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      // Visits counted before an import (short_url_imports) belong to the total, not to a day.
      const [row]: Array<{ total: string | number | null }> = await manager.query(
        `SELECT COALESCE((SELECT SUM(visits) FROM short_url_visits WHERE short_url_pos = ?), 0)
              + COALESCE((SELECT visits FROM short_url_imports WHERE short_url_pos = ?), 0) AS total`,
        [pos, pos],
      );
      const applied = await this.moves.appliedSince(manager, options.appliedSince);
      const days: Array<{ day: string; visits: string | number }> =
        options.since === undefined
          ? []
          : await manager.query(
              "SELECT DATE_FORMAT(day, '%Y-%m-%d') AS day, visits FROM short_url_visits WHERE short_url_pos = ? AND day >= ?",
              [pos, options.since],
            );
      const values: Array<{ dimension: string; value: string; visits: string | number }> =
        options.since === undefined
          ? []
          : await manager.query(
              'SELECT dimension, value, SUM(visits) AS visits FROM short_url_visit_breakdown WHERE short_url_pos = ? AND day >= ? GROUP BY dimension, value',
              [pos, options.since],
            );
      const breakdown = new Map<Dimension, ValueCounts>();
      for (const v of values) {
        if (!isDimension(v.dimension)) continue;
        let counts = breakdown.get(v.dimension);
        if (counts === undefined) breakdown.set(v.dimension, (counts = new Map<string, number>()));
        addTo(counts, v.value, Number(v.visits));
      }
      return {
        total: Number(row?.total ?? 0),
        days: new Map(days.map((d) => [d.day, Number(d.visits)])),
        breakdown,
        applied,
      };
    });
  }

  /** Forgets applied batch ids older than `before`. */
  pruneMoves(before: Date): Promise<void> {
    return this.moves.prune(before);
  }
}
