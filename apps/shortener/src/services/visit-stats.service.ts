import { VISIT_STATS_DAYS, type VisitDay } from '@pawlink/contracts';
import { LocalLru } from '../repositories/local-lru.js';
import type { PendingVisitsRepository } from '../repositories/pending-visits.repository.js';
import type { VisitRepository } from '../repositories/visit.repository.js';
import { firstOfLastDays } from './visit-day.rules.js';

export interface VisitStatsDeps {
  visits: Pick<VisitRepository, 'total' | 'days'>;
  pending: Pick<PendingVisitsRepository, 'pendingOf'>;
  /** Unix ms. */
  now: () => number;
  /** How long a total shown on a preview page may be reused (the preview stays free of I/O meanwhile). */
  previewTotalTtlMs: number;
  previewTotalCacheSize: number;
}

/**
 * Counted visits as clients see them: what MySQL holds plus what waits in Redis. Visits still in
 * an instance's memory (at most its flush interval) and a batch in the middle of its move (a few
 * milliseconds) are not seen yet.
 */
export class VisitStatsService {
  private readonly previewTotals: LocalLru<number>;

  constructor(private readonly deps: VisitStatsDeps) {
    this.previewTotals = new LocalLru(deps.previewTotalCacheSize, deps.previewTotalTtlMs, deps.now);
  }

  async total(code: string, pos: number): Promise<number> {
    const [stored, pending] = await Promise.all([this.deps.visits.total(pos), this.deps.pending.pendingOf(code)]);
    let total = stored;
    for (const visits of pending.values()) total += visits;
    return total;
  }

  /**
   * The total for a preview page: reused for a few seconds. Previews keep working without Redis
   * (MySQL is the truth): then the total is what MySQL holds, and is not kept.
   */
  async previewTotal(code: string, pos: number): Promise<number> {
    const key = `${pos}:${code}`;
    const held = this.previewTotals.get(key);
    if (held !== undefined) return held;
    const [stored, pending] = await Promise.all([this.deps.visits.total(pos), this.deps.pending.pendingOf(code).catch(() => null)]);
    if (pending === null) return stored;
    let total = stored;
    for (const visits of pending.values()) total += visits;
    this.previewTotals.set(key, total);
    return total;
  }

  /** The total and the last VISIT_STATS_DAYS UTC days that had visits, oldest first. */
  async stats(code: string, pos: number): Promise<{ visits: number; days: VisitDay[] }> {
    const since = firstOfLastDays(this.deps.now(), VISIT_STATS_DAYS);
    const [stored, recent, pending] = await Promise.all([this.deps.visits.total(pos), this.deps.visits.days(pos, since), this.deps.pending.pendingOf(code)]);
    let visits = stored;
    for (const [day, count] of pending) {
      visits += count;
      if (day >= since) recent.set(day, (recent.get(day) ?? 0) + count);
    }
    const days = [...recent].filter(([, count]) => count > 0).sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, count]) => ({ date, visits: count }));
    return { visits, days };
  }
}
