import { logUnlessUnavailable, type Logger } from '@pawlink/service-kit';
import { randomBytes } from 'node:crypto';
import { nextUtcDayStart, utcDay } from '../services/visit-day.rules.js';
import type { PendingVisitsRepository, VisitCount } from './pending-visits.repository.js';

export interface VisitTallyOptions {
  pending: Pick<PendingVisitsRepository, 'add'>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: Logger;
  now?: () => number;
}

/** Entries per Redis call: keeps each script short, so Redis is never blocked for long. */
const FLUSH_CHUNK = 1_000;

/**
 * This instance's counted visits, tallied in memory (code → n per UTC day) and sent to Redis in one
 * script call per chunk every `flushMs`. `add` is a Map update: the redirect hot path pays nothing
 * more. A flush that fails is retried with the same id (applied at most once) until Redis takes it;
 * what is in memory when the process dies without SIGTERM is lost (at most `flushMs` of its visits
 * while Redis answers).
 */
export class VisitTallyRepository {
  private readonly now: () => number;
  private day = '';
  private dayEndsAt = 0;
  private counts = new Map<string, number>();
  /** Earlier days' tallies not sent yet (a flush spanning midnight). */
  private earlier: VisitCount[] = [];
  /** Chunks that failed, kept with their ids for the retry. */
  private unsent: Array<{ id: string; counts: VisitCount[] }> = [];
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: VisitTallyOptions) {
    this.now = options.now ?? Date.now;
  }

  /** One counted visit of `code`, now. */
  add(code: string): void {
    const now = this.now();
    if (now >= this.dayEndsAt) this.startDay(now);
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
  }

  private startDay(now: number): void {
    this.earlier.push(...this.drainToday());
    this.day = utcDay(now);
    this.dayEndsAt = nextUtcDayStart(now);
  }

  private drainToday(): VisitCount[] {
    const drained = [...this.counts].map(([code, visits]) => ({ day: this.day, code, visits }));
    this.counts = new Map();
    return drained;
  }

  /** Visits tallied here and not yet in Redis. */
  get unflushed(): number {
    let total = 0;
    for (const visits of this.counts.values()) total += visits;
    for (const chunk of [{ counts: this.earlier }, ...this.unsent]) for (const count of chunk.counts) total += count.visits;
    return total;
  }

  /** Sends what is tallied (and what failed before) to Redis; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    const counts = [...this.earlier, ...this.drainToday()];
    this.earlier = [];
    const run = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
    for (let i = 0; i < counts.length; i += FLUSH_CHUNK) this.unsent.push({ id: `${run}-${i / FLUSH_CHUNK}`, counts: counts.slice(i, i + FLUSH_CHUNK) });
    while (this.unsent.length > 0) {
      const chunk = this.unsent[0]!;
      try {
        await this.options.pending.add(chunk.id, chunk.counts);
      } catch (error) {
        logUnlessUnavailable(this.options.logger, 'visit counts could not be sent to Redis; kept for the next flush')(error);
        return;
      }
      this.unsent.shift();
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and sends what is left (at shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing;
    await this.flush();
  }
}
