import { PendingCounts, type CountCodec } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';

/** Visits of one code on one UTC day. */
export interface VisitCount {
  day: string;
  code: string;
  visits: number;
}

/** A code's visits of a day are one plain number: the day is the hash field, as before the shared layout existed. */
const VISITS: CountCodec<VisitCount> = {
  write: ({ code, day, visits }) => [code, day, '', visits],
  read: (code, day, _field, visits) => ({ day, code, visits }),
};

/**
 * Counted visits on their way from the instances to MySQL, in Redis: service-kit's PendingCounts
 * under `{shortener:visits}`, one pending hash per code (UTC day → visits).
 */
export class PendingVisitsRepository extends PendingCounts<VisitCount> {
  constructor(redis: RedisClient, prefix: string) {
    super({ redis, prefix, tag: 'shortener:visits', codec: VISITS });
  }
}
