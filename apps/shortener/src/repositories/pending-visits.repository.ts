import { PendingCounts, type CountCodec } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';

/**
 * Visits of one code on one UTC day: all of them (`field` ''), or those of one breakdown value
 * (`field` `<dimension>:<value>`, e.g. `c:DE`; services/visit-breakdown.rules.ts). A visit is one
 * plain count and one per dimension, which travel together (one hash per code), so the breakdown
 * always adds up to the visits wherever they are on their way.
 */
export interface VisitCount {
  day: string;
  code: string;
  field: string;
  visits: number;
}

/** A code's visits of a day are the plain number under the day field, as before the breakdown existed; its breakdown values sit beside it. */
const VISITS: CountCodec<VisitCount> = {
  write: ({ code, day, field, visits }) => [code, day, field, visits],
  read: (code, day, field, visits) => ({ day, code, field, visits }),
};

/**
 * Counted visits on their way from the instances to MySQL, in Redis: service-kit's PendingCounts
 * under `{shortener:visits}`, one pending hash per code (UTC day → visits, and `<day>\t<field>` →
 * visits of a breakdown value). It holds countries, never addresses.
 */
export class PendingVisitsRepository extends PendingCounts<VisitCount> {
  constructor(redis: RedisClient, prefix: string) {
    super({ redis, prefix, tag: 'shortener:visits', codec: VISITS });
  }
}
