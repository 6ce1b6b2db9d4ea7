import { nextUtcDayStart, utcDay } from './usage-day.rules.js';
import type { UsageCount } from './usage-count.js';

/**
 * Requests counted in memory per key and field for the current UTC day, until drained for Redis.
 * `add` is two Map lookups and an update (the key's hot path; fields are the same string objects
 * request after request, so nothing is built or hashed anew). A day that ends is set aside whole.
 */
export class UsageTally {
  private day = '';
  private dayEndsAt = 0;
  private counts = new Map<number, Map<string, number>>();
  /** Earlier days' counts not drained yet (a drain spanning midnight). */
  private earlier: UsageCount[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  add(keyId: number, field: string): void {
    const now = this.now();
    if (now >= this.dayEndsAt) this.startDay(now);
    let fields = this.counts.get(keyId);
    if (!fields) this.counts.set(keyId, (fields = new Map<string, number>()));
    fields.set(field, (fields.get(field) ?? 0) + 1);
  }

  private startDay(now: number): void {
    this.earlier.push(...this.today());
    this.counts = new Map();
    this.day = utcDay(now);
    this.dayEndsAt = nextUtcDayStart(now);
  }

  private today(keyId?: number): UsageCount[] {
    const found: UsageCount[] = [];
    for (const [id, fields] of this.counts) {
      if (keyId !== undefined && id !== keyId) continue;
      for (const [field, count] of fields) found.push({ keyId: id, day: this.day, field, count });
    }
    return found;
  }

  /** Everything counted so far, emptying the tally. */
  drain(): UsageCount[] {
    const drained = [...this.earlier, ...this.today()];
    this.earlier = [];
    this.counts = new Map();
    return drained;
  }

  /** What is counted for `keyId` and not drained yet. */
  ofKey(keyId: number): UsageCount[] {
    return [...this.earlier.filter((c) => c.keyId === keyId), ...this.today(keyId)];
  }
}
