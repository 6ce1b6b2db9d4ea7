import { DayTally, type LogSink } from '@pawlink/service-kit';
import { boundPendingValues } from '../services/visit-breakdown.rules.js';
import type { PendingVisitsRepository, VisitCount } from './pending-visits.repository.js';

/** Turns a visit's raw source (referrer host, user agent, address) into its breakdown fields, e.g. `c:DE`. */
export type DescribeVisitSource = (rawReferrerHost: string, userAgent: string, address: string) => readonly string[];

export interface VisitTallyOptions {
  pending: Pick<PendingVisitsRepository, 'add'>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: LogSink;
  /** When given, each visit's source is tallied too and described by it at flush time; else only counts. */
  describe?: DescribeVisitSource;
  now?: () => number;
}

/** A tally key's counted visits of one UTC day, in memory. */
interface DayVisits {
  visits: number;
}

/** Separates the parts of a tally key: no code, host, user agent or address holds a line feed. */
const SEP = '\n';

/** Counts of one code, day and field added up: Redis gets each once per flush. */
function merged(counts: readonly VisitCount[]): VisitCount[] {
  const byKey = new Map<string, VisitCount>();
  for (const count of counts) {
    const key = `${count.code}${SEP}${count.day}${SEP}${count.field}`;
    const held = byKey.get(key);
    if (held) held.visits += count.visits;
    else byKey.set(key, { ...count });
  }
  return [...byKey.values()];
}

/**
 * This instance's counted visits, tallied in memory per UTC day and sent to Redis every `flushMs`
 * (service-kit's DayTally: a failed chunk is retried, added once; at most `flushMs` of visits are
 * lost when the process dies without SIGTERM). `add` is one Map lookup and an increment: the
 * redirect hot path pays nothing more. With the breakdown on, the key is the code with the visit's
 * raw referrer host, user agent and address; the flush describes each key once (user agent parsed,
 * country looked up, both memoised), so what reaches Redis holds countries, never addresses.
 */
export class VisitTallyRepository extends DayTally<string, DayVisits, VisitCount> {
  private readonly withSource: boolean;

  constructor({ pending, flushMs, logger, describe, now }: VisitTallyOptions) {
    super({
      empty: () => ({ visits: 0 }),
      collect: (day, key, { visits }, into) => {
        if (describe === undefined) {
          into.push({ day, code: key, field: '', visits });
          return;
        }
        const [code = '', host = '', userAgent = '', address = ''] = key.split(SEP);
        into.push({ day, code, field: '', visits });
        for (const field of describe(host, userAgent, address)) into.push({ day, code, field, visits });
      },
      keyOf: (count) => count.code,
      send: (chunkId, counts) => pending.add(chunkId, boundPendingValues(merged(counts))),
      flushMs,
      logger,
      what: 'visit counts',
      ...(now ? { now } : {}),
    });
    this.withSource = describe !== undefined;
  }

  /** One counted visit of `code`, now, from the given raw source (kept only with the breakdown on). */
  add(code: string, rawReferrerHost = '', userAgent = '', address = ''): void {
    this.at(this.withSource ? code + SEP + rawReferrerHost + SEP + userAgent + SEP + address : code).visits += 1;
  }
}
