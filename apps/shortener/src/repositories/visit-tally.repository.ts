import { ChunkedFlusher, type Logger } from '@pawlink/service-kit';
import { nextUtcDayStart, utcDay } from '../services/visit-day.rules.js';
import type { PendingVisitsRepository, VisitCount } from './pending-visits.repository.js';

export interface VisitTallyOptions {
  pending: Pick<PendingVisitsRepository, 'add'>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: Logger;
  now?: () => number;
}

/**
 * This instance's counted visits, tallied in memory (code → n per UTC day) and sent to Redis every
 * `flushMs` by service-kit's ChunkedFlusher (a failed chunk is retried, added once; at most
 * `flushMs` of visits are lost when the process dies without SIGTERM). `add` is a Map update: the
 * redirect hot path pays nothing more.
 */
export class VisitTallyRepository {
  private readonly now: () => number;
  private day = '';
  private dayEndsAt = 0;
  private counts = new Map<string, number>();
  /** Earlier days' tallies not sent yet (a flush spanning midnight). */
  private earlier: VisitCount[] = [];
  private readonly flusher: ChunkedFlusher<VisitCount>;

  constructor(options: VisitTallyOptions) {
    this.now = options.now ?? Date.now;
    this.flusher = new ChunkedFlusher({
      drain: () => {
        const counts = [...this.earlier, ...this.drainToday()];
        this.earlier = [];
        return counts;
      },
      send: (chunkId, counts) => options.pending.add(chunkId, counts),
      flushMs: options.flushMs,
      logger: options.logger,
      what: 'visit counts',
    });
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
    for (const count of [...this.earlier, ...this.flusher.waiting]) total += count.visits;
    return total;
  }

  /** Sends what is tallied (and what failed before) to Redis; one flush at a time. */
  flush(): Promise<void> {
    return this.flusher.flush();
  }

  start(): void {
    this.flusher.start();
  }

  /** Stops the timer and sends what is left (at shutdown). */
  stop(): Promise<void> {
    return this.flusher.stop();
  }
}
