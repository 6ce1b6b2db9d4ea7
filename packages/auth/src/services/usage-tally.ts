import { nextUtcDayStart, utcDay } from './usage-day.rules.js';
import type { UsageCount } from './usage-count.js';

/**
 * Requests counted in memory per key, day and field, until drained for Redis. `add` is one Map
 * update (the key's hot path). The day is looked up once per UTC day, not per request.
 */
export class UsageTally {
  private day = '';
  private dayEndsAt = 0;
  private counts = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  add(keyId: number, field: string): void {
    const now = this.now();
    if (now >= this.dayEndsAt) {
      this.day = utcDay(now);
      this.dayEndsAt = nextUtcDayStart(now);
    }
    const entry = `${keyId}\t${this.day}\t${field}`;
    this.counts.set(entry, (this.counts.get(entry) ?? 0) + 1);
  }

  /** Everything counted so far, emptying the tally. */
  drain(): UsageCount[] {
    const drained: UsageCount[] = [];
    for (const [entry, count] of this.counts) {
      const [keyId, day, field] = entry.split('\t') as [string, string, string];
      drained.push({ keyId: Number(keyId), day, field, count });
    }
    this.counts = new Map();
    return drained;
  }

  /** What is counted for `keyId` and not drained yet. */
  ofKey(keyId: number): UsageCount[] {
    const prefix = `${keyId}\t`;
    const found: UsageCount[] = [];
    for (const [entry, count] of this.counts) {
      if (!entry.startsWith(prefix)) continue;
      const [, day, field] = entry.split('\t') as [string, string, string];
      found.push({ keyId, day, field, count });
    }
    return found;
  }
}
