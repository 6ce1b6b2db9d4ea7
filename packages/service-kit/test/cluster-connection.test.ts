import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedis, loadBaseConfig } from '../src/index.js';

/** The connection REDIS_CLUSTER_NODES asks for, inspected before it ever reaches a server (nothing listens on port 1). */
describe('createRedis with REDIS_CLUSTER_NODES', () => {
  it('opens an ioredis Cluster, with the user, password and TLS of REDIS_URL on every node', () => {
    const config = loadBaseConfig({
      REDIS_CLUSTER_NODES: '127.0.0.1:1,127.0.0.2:1',
      REDIS_URL: 'rediss://ops:p%40ss@ignored:6379/3',
    });
    const redis = createRedis(config.redis, {
      name: 'probe',
      failFast: { connectTimeoutMs: 300, commandTimeoutMs: 400 },
    });
    try {
      expect(redis).toBeInstanceOf(Cluster);
      const cluster = redis as Cluster;
      expect(cluster.options.redisOptions).toMatchObject({
        username: 'ops',
        password: 'p@ss',
        tls: {},
        connectionName: 'probe',
        connectTimeout: 300,
        commandTimeout: 400,
        maxRetriesPerRequest: 1,
      });
      expect(cluster.options.enableAutoPipelining).toBe(true);
      // A failover fails a command at once (the master circuit keeps the next ones from trying) instead of retrying it.
      expect(cluster.options).toMatchObject({
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
        slotsRefreshTimeout: 400,
        enableOfflineQueue: true,
      });
    } finally {
      redis.disconnect();
    }
  });

  it("gives BullMQ connections maxRetriesPerRequest null on every node, and ioredis' retries", () => {
    const config = loadBaseConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:1' });
    const redis = createRedis(config.redis, { forQueue: true });
    try {
      expect((redis as Cluster).options.redisOptions?.maxRetriesPerRequest).toBeNull();
      expect((redis as Cluster).options).toMatchObject({ retryDelayOnFailover: 100, retryDelayOnClusterDown: 100 });
    } finally {
      redis.disconnect();
    }
  });

  it('opens the one Redis of REDIS_URL without it', () => {
    const redis = createRedis(loadBaseConfig({ REDIS_URL: 'redis://127.0.0.1:1' }).redis);
    try {
      expect(redis).toBeInstanceOf(Redis);
    } finally {
      redis.disconnect();
    }
  });
});
