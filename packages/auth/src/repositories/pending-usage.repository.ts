import { PendingCounts, type CountCodec } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { UsageCount } from '../domain/usage-count.rules.js';

/** A key's pending usage outlives any mover outage worth waiting for; past it the counts are dropped. */
export const USAGE_TTL_SECONDS = 35 * 86_400;

/** A key's requests of a day, per `<service> <route>` field. */
const USAGE: CountCodec<UsageCount> = {
  write: ({ keyId, day, field, count }) => [String(keyId), day, field, count],
  read: (keyId, day, field, count) => ({ keyId: Number(keyId), day, field, count }),
};

/**
 * Key usage on its way from the instances to MySQL, in Redis: service-kit's PendingCounts under
 * `{key-usage}`, one pending hash per API key (`<day>\t<service> <route>` → requests).
 */
export class PendingUsageRepository extends PendingCounts<UsageCount> {
  constructor(redis: RedisClient, prefix: string) {
    super({ redis, prefix, tag: 'key-usage', codec: USAGE, ttlSeconds: USAGE_TTL_SECONDS });
  }
}
