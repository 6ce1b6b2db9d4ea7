import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, createRedis, loadBaseConfig, type BaseConfig } from '@pawlink/service-kit';
import { createTestContext, startTcpProxy, type TestContext } from '@pawlink/test-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RedirectCacheRepository,
  type CachedLink,
  type CacheChange,
} from '../../src/repositories/redirect-cache.repository.js';

let ctx: TestContext;
let config: BaseConfig;
let redis: RedisClient;
let subscriber: RedisClient;
const stored = new Map<string, string>();
let loads: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext('sh-cache-repo');
  config = loadBaseConfig(ctx.env);
  redis = createRedis(config.redis);
  subscriber = createRedis(config.redis);
});
afterAll(async () => {
  redis.disconnect();
  subscriber.disconnect();
  await ctx.cleanup();
});

/** A link without expiry, as the cache holds it. */
const plain = (url: string): CachedLink => ({ url, expiresAt: null, limited: false, protected: false, rules: null });

function cache(size = 100, ownSubscriber = subscriber): RedirectCacheRepository {
  return new RedirectCacheRepository({
    redis,
    subscriber: ownSubscriber,
    redisPrefix: ctx.redisPrefix,
    size,
    localTtlMs: 60_000,
    redisTtlSeconds: 600,
    logger: createLogger('shortener', 'error', { silent: true }),
    load: (code) => {
      loads.push(code);
      const url = stored.get(code);
      return Promise.resolve(url === undefined ? null : plain(url));
    },
  });
}

describe('RedirectCacheRepository', () => {
  it('loads a miss from the source once, then answers from Redis and memory', async () => {
    stored.set('warm', 'https://example.com/warm');
    loads = [];
    const first = cache();
    expect(await first.get('warm')).toEqual(plain('https://example.com/warm'));
    expect(first.peek('warm')).toEqual(plain('https://example.com/warm'));
    // Another instance finds it in Redis.
    expect(await cache().get('warm')).toEqual(plain('https://example.com/warm'));
    expect(loads).toEqual(['warm']);
  });

  it('remembers an unknown code briefly, so made-up codes cost one load per window', async () => {
    loads = [];
    const instance = cache();
    expect(await instance.get('ghost')).toBeNull();
    expect(await instance.get('ghost')).toBeNull();
    expect(loads).toEqual(['ghost']);
    // A create replaces the marker at once.
    await instance.put('ghost', plain('https://example.com/now-real'));
    expect(await cache().get('ghost')).toEqual(plain('https://example.com/now-real'));
  });

  /** A subscribed peer that has read `code`, an editor that announces `change` to it, and what the peer heard. */
  async function announce(
    code: string,
    change: CacheChange,
    between: () => void = () => undefined,
  ): Promise<{ peer: RedirectCacheRepository; heard: string }> {
    const peer = cache();
    await peer.start();
    try {
      await peer.get(code);
      const announced = new Promise<string>((resolve) => peer.once('invalidated', resolve));
      between();
      await cache().invalidate(code, change);
      return { peer, heard: await announced };
    } finally {
      await peer.stop();
    }
  }

  it('after an edit or a delete asks the source again, and tells the other instances', async () => {
    stored.set('moved', 'https://example.com/old');
    const { peer, heard } = await announce('moved', 'edited', () => stored.set('moved', 'https://example.com/new'));
    expect(heard).toBe('moved');
    expect(peer.peek('moved')).toBeUndefined();
    expect(await peer.get('moved')).toEqual(plain('https://example.com/new'));
  });

  it('announces a credit-only change without sending readers of the redirect back to the source', async () => {
    stored.set('credited', 'https://example.com/same');
    const { peer, heard } = await announce('credited', 'credited', () => {
      loads = [];
    });
    expect(heard).toBe('credited');
    expect(await peer.get('credited')).toEqual(plain('https://example.com/same'));
    expect(await cache().get('credited')).toEqual(plain('https://example.com/same'));
    expect(loads).toEqual([]);
  });

  it('drops its memory and says so (`reset`) when the subscriber reconnects, as announcements may have been missed', async () => {
    const instance = cache();
    await instance.start();
    try {
      await instance.put('kept', plain('https://example.com/kept'));
      const reset = new Promise<void>((resolve) => instance.once('reset', resolve));
      subscriber.emit('ready');
      await reset;
      expect(instance.peek('kept')).toBeUndefined();
    } finally {
      await instance.stop();
    }
  });

  it('renews its subscription after a reconnect itself, and reconnects when the renewal times out', async () => {
    const target = new URL(config.redis.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const own = createRedis(
      { ...config.redis, url: `redis://${proxy.host}:${proxy.port}` },
      { subscriber: true, failFast: { connectTimeoutMs: 1000, commandTimeoutMs: 300 } },
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    const instance = cache(100, own);
    await instance.start();
    try {
      // The answer to the renewed SUBSCRIBE is held past the command timeout.
      const held = proxy.stallOn('subscribe');
      proxy.cut();
      await sleep(100);
      proxy.restore();
      await held;
      stored.set('renewed', 'https://example.com/renewed');
      // A peer's announcements reach it once it has subscribed again on a new connection.
      const heard = new Promise<void>((resolve) => instance.once('invalidated', () => resolve()));
      const peer = cache();
      let announced = false;
      void heard.then(() => (announced = true));
      const deadline = Date.now() + 15_000;
      while (!announced && Date.now() < deadline) {
        await peer.invalidate('renewed', 'edited');
        await sleep(100);
      }
      expect(announced).toBe(true);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await instance.stop();
      own.disconnect();
      await proxy.close();
    }
  });

  it('holds at most `size` codes in memory, least recently used out first', async () => {
    const small = cache(2);
    await small.put('a', plain('https://example.com/a'));
    await small.put('b', plain('https://example.com/b'));
    small.peek('a');
    await small.put('c', plain('https://example.com/c'));
    expect([small.peek('a'), small.peek('b'), small.peek('c')]).toEqual([
      plain('https://example.com/a'),
      undefined,
      plain('https://example.com/c'),
    ]);
  });
});
