import { Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from './base-config.js';

/**
 * A Redis connection for caches, limits and switches. BullMQ needs its own connections with
 * `maxRetriesPerRequest: null`; pass `{ forQueue: true }` for those.
 */
export function createRedis(config: RedisConfig, options: { forQueue?: boolean; name?: string } = {}): Redis {
  const redisOptions: RedisOptions = {
    lazyConnect: false,
    enableAutoPipelining: true,
    connectionName: options.name,
    maxRetriesPerRequest: options.forQueue ? null : 2,
  };
  return new Redis(config.url, redisOptions);
}
