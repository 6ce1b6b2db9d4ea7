import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisConfig } from './base-config.js';
// A type only: this entry stays light (the thumbnail processor thread loads it, docs/adr/0007).
import type { ClusterMasterCircuit } from './dependencies/cluster-master-circuit.js';
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
  /**
   * On a Redis Cluster with `failFast`: the process's record of masters that are down, shared by
   * all its connections (the service runtime passes one; docs/scaling.md).
   */
  masters?: ClusterMasterCircuit;
  /**
   * For a connection that SUBSCRIBEs: its owner subscribes again on every 'ready' and handles the
   * failure. ioredis' own resubscription after a reconnect has no catch: a SUBSCRIBE that times
   * out (`commandTimeout`) or whose connection drops again rejects unhandled, which ends the process.
   */
  subscriber?: boolean;
  /** CLIENT SETNAME, and the `connection` field of its log lines. */
  name?: string;
  /** Where the connection's failures are logged, once per change of state. */
  logger?: LogSink;
}

/**
 * A connection to the one Redis or to a Redis Cluster (REDIS_CLUSTER_NODES): both run the same
 * commands, scripts, MULTI and pipelines, as long as the keys of each of those share a hash slot
 * (docs/scaling.md; every multi-key command in the code keeps its keys under one hash tag).
 */
export type RedisClient = Redis | Cluster;

/**
 * Logs a connection going down once and coming back once, not every failed reconnect attempt;
 * having a listener also keeps ioredis from printing "Unhandled error event" to stderr. On a
 * cluster a failing node counts as the connection going down, unless `nodes` is false: a
 * connection behind the master circuit leaves its masters to the circuit, which logs each outage
 * once for the process.
 */
export function watchRedisConnection(
  redis: RedisClient,
  logger: LogSink | undefined,
  name: string,
  nodes = true,
): void {
  let down = false;
  const lost = (reason: string): void => {
    if (down) return;
    down = true;
    logger?.warn('redis connection lost', { connection: name, error: reason });
  };
  const restored = (): void => {
    if (!down) return;
    down = false;
    logger?.info('redis connection restored', { connection: name });
  };
  redis.on('error', (error: Error) => lost(error.message));
  if (redis instanceof Cluster && nodes) {
    // A cluster stays 'ready' while one of its masters is down; its node connections tell.
    redis.on('node error', (error: Error, node: string) => lost(`${node}: ${error.message}`));
    redis.on('+node', (node: Redis) => node.once('ready', restored));
  }
  // A server that goes away may close the connection without an error event. A cluster says
  // 'close' before it decides between reconnecting and 'end' (a quit): look once it has.
  redis.on('close', () => {
    setImmediate(() => {
      if (redis.status !== 'end') lost('connection closed');
    });
  });
  redis.on('ready', restored);
}

/** The fail-fast settings of a service's plain connections, from DB_/REDIS_*_TIMEOUT_MS. */
export const failFastRedis = (timeouts: {
  redisConnectMs: number;
  redisCommandMs: number;
}): NonNullable<CreateRedisOptions['failFast']> => ({
  connectTimeoutMs: timeouts.redisConnectMs,
  commandTimeoutMs: timeouts.redisCommandMs,
});

// Reconnect soon after Redis returns (ioredis' default backs off to 2 s).
const reconnectDelay = (attempt: number): number => Math.min(50 * 2 ** attempt, 1000);

/** What REDIS_URL says about every cluster node: its user, password and TLS; host, port and database do not apply. */
function clusterNodeOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

function openClient(
  config: RedisConfig,
  nodeOptions: RedisOptions,
  failFast: CreateRedisOptions['failFast'],
): RedisClient {
  if (!config.clusterNodes)
    return new Redis(config.url, { ...nodeOptions, lazyConnect: false, retryStrategy: reconnectDelay });
  const { enableAutoPipelining, ...perNode } = nodeOptions;
  const options: ClusterOptions = {
    lazyConnect: false,
    enableAutoPipelining,
    clusterRetryStrategy: reconnectDelay,
    redisOptions: { ...clusterNodeOptions(config.url), ...perNode },
    // docs/scaling.md: during a failover a command fails at once (the master circuit keeps the
    // others from trying) instead of being retried toward a master that is gone.
    ...(failFast
      ? { retryDelayOnFailover: 0, retryDelayOnClusterDown: 0, slotsRefreshTimeout: failFast.commandTimeoutMs }
      : {}),
  };
  return new Cluster(config.clusterNodes, options);
}

/**
 * A Redis connection for caches, limits and switches: to the one Redis of REDIS_URL, or to the
 * Redis Cluster of REDIS_CLUSTER_NODES when that is set. BullMQ needs its own connections with
 * `maxRetriesPerRequest: null`; pass `{ forQueue: true }` for those.
 */
export function createRedis(config: RedisConfig, options: CreateRedisOptions = {}): RedisClient {
  const failFast = options.forQueue ? undefined : options.failFast;
  const redis = openClient(
    config,
    {
      enableAutoPipelining: true,
      connectionName: options.name,
      ...(options.subscriber ? { autoResubscribe: false } : {}),
      maxRetriesPerRequest: options.forQueue ? null : failFast ? 1 : 2,
      ...(failFast ? { connectTimeout: failFast.connectTimeoutMs, commandTimeout: failFast.commandTimeoutMs } : {}),
    },
    failFast,
  );
  const circuit = failFast && redis instanceof Cluster ? options.masters : undefined;
  watchRedisConnection(redis, options.logger, options.name ?? 'redis', !circuit);
  if (circuit && redis instanceof Cluster) {
    circuit.attach(redis);
  } else if (failFast) {
    // Commands sent before the first connection wait for it (boot order); once connected, a
    // command sent while the connection is down fails at once instead of queueing for it.
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
  }
  return redis;
}
