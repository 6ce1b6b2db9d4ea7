import { Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from './base-config.js';
import type { LogSink } from './logger.js';

export interface CreateRedisOptions {
  /** BullMQ connections need `maxRetriesPerRequest: null`. */
  forQueue?: boolean;
  /** CLIENT SETNAME, and the `connection` field of its log lines. */
  name?: string;
  /** Where the connection's failures are logged, once per change of state. */
  logger?: LogSink;
}

/**
 * Logs a connection going down once and coming back once, not every failed reconnect attempt;
 * having a listener also keeps ioredis from printing "Unhandled error event" to stderr.
 */
export function watchRedisConnection(redis: Redis, logger: LogSink | undefined, name: string): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger?.warn('redis connection lost', { connection: name, error: error.message });
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info('redis connection restored', { connection: name });
  });
}

/**
 * A Redis connection for caches, limits and switches. BullMQ needs its own connections with
 * `maxRetriesPerRequest: null`; pass `{ forQueue: true }` for those.
 */
export function createRedis(config: RedisConfig, options: CreateRedisOptions = {}): Redis {
  const redisOptions: RedisOptions = {
    lazyConnect: false,
    enableAutoPipelining: true,
    connectionName: options.name,
    maxRetriesPerRequest: options.forQueue ? null : 2,
  };
  const redis = new Redis(config.url, redisOptions);
  watchRedisConnection(redis, options.logger, options.name ?? 'redis');
  return redis;
}
