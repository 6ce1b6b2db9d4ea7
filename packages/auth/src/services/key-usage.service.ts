import { appliedSinceFor, countsNotInMysql, firstOfLastDays, utcDay } from '@pawlink/service-kit';
import type { PendingUsageRepository } from '../repositories/pending-usage.repository.js';
import type { UsageRepository } from '../repositories/usage.repository.js';
import { publicRouteLabel, splitUsageField, type UsageCount } from '../domain/usage-count.rules.js';

/** Days `GET /status` shows: today and the 29 UTC days before it. */
export const STATUS_USAGE_DAYS = 30;

/** One UTC day of a key's usage: requests in all, and per route (`GET /:category`, or `<service> GET /:category` across services). */
export interface UsageDay {
  date: string;
  total: number;
  routes: Record<string, number>;
}

/** A key's usage: today (always there, 0 when unused) and the days that had requests, oldest first. */
export interface KeyUsage {
  /** The service the routes belong to; null when they are of every service (routes then start with the service). */
  service: string | null;
  today: UsageDay;
  days: UsageDay[];
}

export interface KeyUsageDeps {
  usage: Pick<UsageRepository, 'snapshot'>;
  pending: Pick<PendingUsageRepository, 'pendingOf'>;
  /** Counts still in this process (not yet in Redis); none in the admin tool. */
  unflushedOf?: (keyId: number) => UsageCount[];
  now: () => number;
}

/**
 * A key's usage as it is seen: MySQL, then what Redis holds (pending, or in a batch MySQL did
 * not have when it was read), then this process's unflushed tally. Read in that order, a request is
 * counted once wherever it is on its way (movers forget applied batches only after
 * APPLIED_BATCH_VISIBLE_MS). Other instances' last `flushMs` of requests are not seen yet;
 * while Redis is unreachable only MySQL's and this process's are.
 */
export class KeyUsageService {
  constructor(private readonly deps: KeyUsageDeps) {}

  /** The last `dayCount` UTC days of `keyId`, for `service` only or (null) for all services. */
  async ofKey(keyId: number, options: { service: string | null; dayCount: number }): Promise<KeyUsage> {
    const now = this.deps.now();
    const since = firstOfLastDays(now, options.dayCount);
    const stored = await this.deps.usage.snapshot(keyId, { since, appliedSince: appliedSinceFor(now) });
    const counts = [
      ...stored.counts,
      ...(await countsNotInMysql(this.deps.pending.pendingOf(String(keyId)), stored.applied)),
    ];
    counts.push(...(this.deps.unflushedOf?.(keyId) ?? []));

    const byDay = new Map<string, UsageDay>();
    for (const { day, field, count } of counts) {
      if (day < since) continue;
      const { service, route: recorded } = splitUsageField(field);
      if (options.service !== null && service !== options.service) continue;
      const route = publicRouteLabel(recorded);
      const label = options.service === null ? `${service} ${route}` : route;
      let entry = byDay.get(day);
      if (!entry) byDay.set(day, (entry = { date: day, total: 0, routes: {} }));
      entry.total += count;
      entry.routes[label] = (entry.routes[label] ?? 0) + count;
    }
    const today = utcDay(now);
    const list = [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    for (const day of list)
      day.routes = Object.fromEntries(Object.entries(day.routes).sort(([a], [b]) => (a < b ? -1 : 1)));
    return { service: options.service, today: byDay.get(today) ?? { date: today, total: 0, routes: {} }, days: list };
  }
}
