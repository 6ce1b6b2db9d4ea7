import { DayTally, type LogSink } from '@pawlink/service-kit';
import type { PendingVisitsRepository, VisitCount } from './pending-visits.repository.js';

export interface VisitTallyOptions {
  pending: Pick<PendingVisitsRepository, 'add'>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: LogSink;
  now?: () => number;
}

/** A code's counted visits of one UTC day, in memory. */
interface DayVisits {
  visits: number;
}

/**
 * This instance's counted visits, tallied in memory per code and UTC day and sent to Redis every
 * `flushMs` (service-kit's DayTally: a failed chunk is retried, added once; at most `flushMs` of
 * visits are lost when the process dies without SIGTERM). `add` is a Map lookup and an increment:
 * the redirect hot path pays nothing more.
 */
export class VisitTallyRepository extends DayTally<string, DayVisits, VisitCount> {
  constructor({ pending, flushMs, logger, now }: VisitTallyOptions) {
    super({
      empty: () => ({ visits: 0 }),
      collect: (day, code, { visits }, into) => into.push({ day, code, visits }),
      keyOf: (count) => count.code,
      send: (chunkId, counts) => pending.add(chunkId, counts),
      flushMs,
      logger,
      what: 'visit counts',
      ...(now ? { now } : {}),
    });
  }

  /** One counted visit of `code`, now. */
  add(code: string): void {
    this.at(code).visits += 1;
  }
}
