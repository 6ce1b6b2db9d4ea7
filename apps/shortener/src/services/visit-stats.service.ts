import { VISIT_STATS_DAYS, type ShortUrlStats } from '@pawlink/contracts';
import { appliedSinceFor, countsNotInMysql, firstOfLastDays, LocalLru } from '@pawlink/service-kit';
import type { PendingVisitsRepository } from '../repositories/pending-visits.repository.js';
import type { VisitRepository } from '../repositories/visit.repository.js';
import { addTo, breakdownOf, splitField, type Dimension, type ValueCounts } from '../domain/visit-breakdown.rules.js';

export interface VisitStatsDeps {
  visits: Pick<VisitRepository, 'snapshot'>;
  pending: Pick<PendingVisitsRepository, 'pendingOf'>;
  /** Unix ms. */
  now: () => number;
  /** How long a total shown on a preview page may be reused (the preview stays free of I/O meanwhile). */
  previewTotalTtlMs: number;
  previewTotalCacheSize: number;
}

/**
 * Counted visits as clients see them: MySQL, then what Redis holds (pending, or in a batch that
 * MySQL did not have at the moment it was read; service-kit's countsNotInMysql). Visits still in an
 * instance's memory (at most its flush interval) are not seen yet; while Redis is unreachable only
 * MySQL's are.
 */
export class VisitStatsService {
  private readonly previewTotals: LocalLru<number>;

  constructor(private readonly deps: VisitStatsDeps) {
    this.previewTotals = new LocalLru(deps.previewTotalCacheSize, deps.previewTotalTtlMs, deps.now);
  }

  /**
   * UTC day → visits of `code` from MySQL's snapshot and Redis, and the breakdown of those days;
   * `since` limits the days and breakdown kept (the total counts all).
   */
  private async read(
    code: string,
    pos: number,
    since?: string,
  ): Promise<{ total: number; days: Map<string, number>; breakdown: Map<Dimension, ValueCounts> }> {
    const stored = await this.deps.visits.snapshot(pos, {
      ...(since === undefined ? {} : { since }),
      appliedSince: appliedSinceFor(this.deps.now()),
    });
    let total = stored.total;
    const { days, breakdown } = stored;
    for (const { day, field, visits } of await countsNotInMysql(this.deps.pending.pendingOf(code), stored.applied)) {
      const inPeriod = since !== undefined && day >= since;
      if (field === '') {
        total += visits;
        if (inPeriod) days.set(day, (days.get(day) ?? 0) + visits);
        continue;
      }
      const split = splitField(field);
      if (!inPeriod || split === null) continue;
      let counts = breakdown.get(split.dimension);
      if (counts === undefined) breakdown.set(split.dimension, (counts = new Map<string, number>()));
      addTo(counts, split.value, visits);
    }
    return { total, days, breakdown };
  }

  async total(code: string, pos: number): Promise<number> {
    return (await this.read(code, pos)).total;
  }

  /** The total for a preview page: reused for a few seconds. */
  async previewTotal(code: string, pos: number): Promise<number> {
    const key = `${pos}:${code}`;
    const held = this.previewTotals.get(key);
    if (held !== undefined) return held;
    const total = await this.total(code, pos);
    this.previewTotals.set(key, total);
    return total;
  }

  /**
   * The total, the last VISIT_STATS_DAYS UTC days that had visits (oldest first), and where those
   * days' visits came from (each breakdown adds up to them).
   */
  async stats(code: string, pos: number): Promise<Omit<ShortUrlStats, 'code'>> {
    const since = firstOfLastDays(this.deps.now(), VISIT_STATS_DAYS);
    const { total, days, breakdown } = await this.read(code, pos, since);
    const list = [...days]
      .filter(([, visits]) => visits > 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, visits]) => ({ date, visits }));
    const periodVisits = list.reduce((sum, day) => sum + day.visits, 0);
    return { visits: total, days: list, ...breakdownOf(periodVisits, breakdown) };
  }
}
