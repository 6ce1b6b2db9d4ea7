import { Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from './base-config.js';
import type { LogSink } from './logger.js';

export interface CreateRedisOptions {
  /**
   * For BullMQ workers and queue events, which block on Redis: `maxRetriesPerRequest: null`, no
   * command timeout; they wait for Redis to come back.
   */
  forQueue?: boolean;
  /**
   * For a service's request path: a command on a lost or stalled connection fails within about
   * these times (one reconnect attempt, or the command timeout) instead of waiting, so the request
   * can be answered 503. Without it (bin/admin, tests) commands are retried a little longer.
   */
  failFast?: { connectTimeoutMs: number; commandTimeoutMs: number };
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
  const lost = (reason: string): void => {
    if (down) return;
    down = true;
    logger?.warn('redis connection lost', { connection: name, error: reason });
  };
  redis.on('error', (error: Error) => lost(error.message));
  // A server that goes away may close the connection without an error event.
  redis.on('close', () => {
    if (redis.status !== 'end') lost('connection closed');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info('redis connection restored', { connection: name });
  });
}

/** The fail-fast settings of a service's plain connections, from DB_/REDIS_*_TIMEOUT_MS. */
export const failFastRedis = (timeouts: { redisConnectMs: number; redisCommandMs: number }): NonNullable<CreateRedisOptions['failFast']> => ({
  connectTimeoutMs: timeouts.redisConnectMs,
  commandTimeoutMs: timeouts.redisCommandMs,
});

/**
 * A Redis connection for caches, limits and switches. BullMQ needs its own connections with
 * `maxRetriesPerRequest: null`; pass `{ forQueue: true }` for those.
 */
export function createRedis(config: RedisConfig, options: CreateRedisOptions = {}): Redis {
  const failFast = options.forQueue ? undefined : options.failFast;
  const redisOptions: RedisOptions = {
    lazyConnect: false,
    enableAutoPipelining: true,
    connectionName: options.name,
    maxRetriesPerRequest: options.forQueue ? null : failFast ? 1 : 2,
    // Reconnect soon after Redis returns (ioredis' default backs off to 2 s).
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1000),
    ...(failFast ? { connectTimeout: failFast.connectTimeoutMs, commandTimeout: failFast.commandTimeoutMs } : {}),
  };
  const redis = new Redis(config.url, redisOptions);
  watchRedisConnection(redis, options.logger, options.name ?? 'redis');
  if (failFast) {
    // Commands sent before the first connection wait for it (boot order); once connected, a
    // command sent while the connection is down fails at once instead of queueing for it.
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
  }
  return redis;
}
