import { createLogger, createRedis, createServiceApp, ReadOnlySwitch } from '@pawlink/service-kit';
import { createTestContext, deleteRedisKeys, request, serveForTest, type TestContext } from '@pawlink/test-kit';
import express from 'express';
import { Redis } from 'ioredis';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createAccessGuards,
  createKeyUsage,
  PendingUsageRepository,
  registerGetStatusRoute,
  UsageRepository,
  type ApiKeyRepository,
  type KeyUsageCounter,
} from '../src/index.js';
import { migrateAuth } from './probe-app.js';

let ctx: TestContext;
let keys: ApiKeyRepository;
let dataSource: DataSource;
let redis: RedisClient;
let prefix: string;
let config: Awaited<ReturnType<typeof migrateAuth>>['config'];
const closers: Array<() => Promise<void>> = [];

const logger = createLogger('thumbs', 'error', { silent: true });

/** One service instance: guards counting usage, GET /status and three routes (one on a mounted router, one spanning segments). */
async function startInstance(service: 'thumbs' | 'images'): Promise<{ url: string; usage: KeyUsageCounter }> {
  const usage = createKeyUsage({
    service,
    redis,
    redisPrefix: prefix,
    dataSource,
    logger,
    flushMs: 100,
    moveMs: 3_600_000,
  });
  usage.start();
  const readOnly = new ReadOnlySwitch(redis, prefix, service, false);
  await readOnly.refresh();
  const guards = createAccessGuards({
    service,
    apiKeys: keys,
    redis,
    redisPrefix: prefix,
    logger,
    keyCacheTtlMs: 0,
    usage,
  });
  const { app, finalize } = createServiceApp({ service, config, logger, readOnly });
  registerGetStatusRoute(app, { service, guards, readOnly });
  app.get('/things/:name', guards.optionalKey(), guards.rateLimit('thumbs.info'), (_req, res) => {
    res.json({ success: true });
  });
  app.get('/tree/*path', guards.optionalKey(), guards.rateLimit('thumbs.info'), (_req, res) => {
    res.json({ success: true });
  });
  const router = express.Router();
  router.post('/items/:id', guards.requireKey(), guards.rateLimit('thumbs.info'), (_req, res) => {
    res.json({ success: true });
  });
  app.use('/v2', router);
  finalize();
  const server = await serveForTest(app);
  closers.push(async () => {
    await server.close();
    await usage.stop();
  });
  return { url: server.url, usage };
}

let a: { url: string; usage: KeyUsageCounter };
let b: { url: string; usage: KeyUsageCounter };
let other: { url: string; usage: KeyUsageCounter };

beforeAll(async () => {
  ctx = await createTestContext('usage');
  const auth = await migrateAuth(ctx);
  keys = auth.keys;
  dataSource = auth.dataSource;
  prefix = auth.config.redis.prefix;
  config = auth.config;
  redis = createRedis(auth.config.redis);
  a = await startInstance('thumbs');
  b = await startInstance('thumbs');
  other = await startInstance('images');
});

afterAll(async () => {
  for (const close of closers) await close();
  redis.disconnect();
  await dataSource.destroy();
  await ctx.cleanup();
});

const newKey = async () =>
  (await keys.create({ name: 'Usage', contact: 'usage@example.com', flags: ['thumbs'] })).record.id;
const keyOf = async () => {
  const { key, record } = await keys.create({ name: 'Usage', contact: 'usage@example.com', flags: ['thumbs'] });
  return { key, id: record.id };
};
const call = (url: string, path: string, key?: string, method = 'GET') =>
  request(`${url}${path}`, { method, headers: key ? { authorization: key } : {} });
const usageAt = async (url: string, key: string) => {
  const res = await call(url, '/status', key);
  expect(res.status).toBe(200);
  return res.body.data.usage as {
    service: string;
    today: { date: string; total: number; routes: Record<string, number> };
    days: Array<{ date: string; total: number; routes: Record<string, number> }>;
  };
};
const today = () => new Date().toISOString().slice(0, 10);

describe('per-key usage through HTTP', () => {
  it('counts requests with a valid key per route pattern; another instance shows them within seconds', async () => {
    const mine = await keyOf();
    const theirs = await keyOf();
    for (const name of ['a', 'b', 'c']) expect((await call(a.url, `/things/${name}`, mine.key)).status).toBe(200);
    expect((await call(a.url, '/v2/items/7', mine.key, 'POST')).status).toBe(200);
    expect((await call(a.url, '/things/zzz', theirs.key)).status).toBe(200);
    expect((await call(a.url, '/things/anonymous')).status).toBe(200);
    expect((await call(a.url, '/things/bad', 'pl_not-a-key')).status).toBe(401);

    // A flushes every 100 ms, so the GETs and the POST may reach Redis in different flushes: wait for all.
    await vi.waitFor(
      async () => {
        const usage = await usageAt(b.url, mine.key);
        expect(usage.today.routes).toMatchObject({ 'GET /things/:name': 3, 'POST /v2/items/:id': 1 });
      },
      { timeout: 5_000, interval: 100 },
    );
    const usage = await usageAt(b.url, mine.key);
    expect(usage.service).toBe('thumbs');
    expect(usage.today.date).toBe(today());
    // B's own GET /status calls are in B's tally: counted too.
    expect(usage.today.routes).toMatchObject({ 'GET /things/:name': 3, 'POST /v2/items/:id': 1 });
    expect(usage.today.routes['GET /status']).toBeGreaterThanOrEqual(1);
    expect(usage.today.total).toBe(Object.values(usage.today.routes).reduce((sum, n) => sum + n, 0));
    expect(usage.days).toEqual([usage.today]);
    expect(JSON.stringify(usage)).not.toContain('/things/a');

    const theirUsage = await usageAt(a.url, theirs.key);
    expect(theirUsage.today.routes['GET /things/:name']).toBe(1);
    expect(theirUsage.today.routes['POST /v2/items/:id']).toBeUndefined();
  });

  it("names a route whose parameter spans segments like any other (`GET /tree/:path`), never by Express's `/*path`", async () => {
    const mine = await keyOf();
    expect((await call(a.url, '/tree/a/b/c', mine.key)).status).toBe(200);
    expect((await call(a.url, '/tree/d', mine.key)).status).toBe(200);
    await vi.waitFor(
      async () => expect((await usageAt(b.url, mine.key)).today.routes).toMatchObject({ 'GET /tree/:path': 2 }),
      { timeout: 5_000, interval: 100 },
    );
    expect(JSON.stringify(await usageAt(b.url, mine.key))).not.toContain('*');
  });

  it('has no usage section without a key', async () => {
    const res = await call(a.url, '/status');
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('usage');
  });

  it("shows a service's /status only its own routes; the all-services reading has both", async () => {
    const mine = await keyOf();
    expect((await call(a.url, '/things/x', mine.key)).status).toBe(200);
    expect((await call(other.url, '/things/y', mine.key)).status).toBe(200);
    await a.usage.flusher.flush();
    const atImages = await usageAt(other.url, mine.key);
    expect(atImages.service).toBe('images');
    expect(atImages.today.routes).toEqual({ 'GET /things/:name': 1, 'GET /status': 1 });
    // The images instance's counts reach Redis at its next flush; A's reader sees them from there.
    await other.usage.flusher.flush();
    const all = await a.usage.reader.ofKey(mine.id, { service: null, dayCount: 30 });
    expect(all.service).toBeNull();
    expect(all.today.routes).toMatchObject({
      'thumbs GET /things/:name': 1,
      'images GET /things/:name': 1,
      'images GET /status': 1,
    });
  });
});

describe('moving usage to MySQL', () => {
  const rowsOf = async (keyId: number) =>
    (
      await dataSource.query(
        "SELECT DATE_FORMAT(day, '%Y-%m-%d') AS day, service, route, count FROM api_key_usage WHERE key_id = ? ORDER BY route",
        [keyId],
      )
    ).map((r: { count: string | number }) => ({ ...r, count: Number(r.count) }));

  it('moves each count once, and the counts survive a Redis flush of the moved data', async () => {
    const mine = await keyOf();
    for (let i = 0; i < 4; i++) expect((await call(a.url, `/things/${i}`, mine.key)).status).toBe(200);
    await a.usage.flusher.flush();
    await a.usage.mover.move();
    await b.usage.mover.move();
    await a.usage.mover.move();
    expect(await rowsOf(mine.id)).toEqual([{ day: today(), service: 'thumbs', route: 'GET /things/:name', count: 4 }]);
    // Right after the move the applied batch is still in Redis: read once, not twice.
    expect((await b.usage.reader.ofKey(mine.id, { service: 'thumbs', dayCount: 30 })).today.routes).toEqual({
      'GET /things/:name': 4,
    });

    await deleteRedisKeys(prefix);
    expect((await b.usage.reader.ofKey(mine.id, { service: 'thumbs', dayCount: 30 })).today.routes).toEqual({
      'GET /things/:name': 4,
    });
    expect((await usageAt(b.url, mine.key)).today.routes['GET /things/:name']).toBe(4);
  });

  it('applies a batch left behind by a stopped mover once, whether or not it reached MySQL', async () => {
    const pending = new PendingUsageRepository(redis, prefix);
    const usage = new UsageRepository(dataSource);
    const keyId = await newKey();
    const old = (Date.now() - 60_000).toString(36);
    await pending.add(`left-1-${keyId}`, [{ keyId, day: today(), field: 'thumbs GET /left', count: 5 }]);
    expect(await pending.take(`${old}-applied${keyId}`, 1_000)).toBe(true);
    // This one reached MySQL before its mover stopped…
    expect(
      await usage.applyBatch(`${old}-applied${keyId}`, await pending.batch(`${old}-applied${keyId}`), new Date()),
    ).toBe(true);
    await pending.add(`left-2-${keyId}`, [{ keyId, day: today(), field: 'thumbs GET /left', count: 2 }]);
    // …this one did not.
    expect(await pending.take(`${old}-taken${keyId}`, 1_000)).toBe(true);
    // A flush retried with the same id is applied once.
    await pending.add(`left-2-${keyId}`, [{ keyId, day: today(), field: 'thumbs GET /left', count: 2 }]);
    await a.usage.mover.move();
    await b.usage.mover.move();
    expect(await rowsOf(keyId)).toEqual([{ day: today(), service: 'thumbs', route: 'GET /left', count: 7 }]);
  });

  it('drains at shutdown: the tally goes to Redis, then MySQL', async () => {
    const instance = await startInstance('thumbs');
    const mine = await keyOf();
    expect((await call(instance.url, '/things/last', mine.key)).status).toBe(200);
    await instance.usage.stop();
    expect(await rowsOf(mine.id)).toEqual([{ day: today(), service: 'thumbs', route: 'GET /things/:name', count: 1 }]);
  });

  it('counts an unlimited key only in the tally, with no rate-limit window, and a stop loses none of it', async () => {
    const instance = await startInstance('thumbs');
    const { key, record } = await keys.create({
      name: 'Unlimited',
      contact: 'usage@example.com',
      flags: ['thumbs'],
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
    });
    for (let i = 0; i < 5; i++) expect((await call(instance.url, '/things/free', key)).status).toBe(200);
    const windows = ['thumbs.info', 'global'].map((bucket) => `${prefix}ratelimit:thumbs:${bucket}:{key:${record.id}}`);
    expect(await redis.exists(...windows)).toBe(0);
    await instance.usage.stop();
    expect(await rowsOf(record.id)).toEqual([
      { day: today(), service: 'thumbs', route: 'GET /things/:name', count: 5 },
    ]);
  });

  it('still answers from MySQL and the tally when Redis cannot be read', async () => {
    const broken = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    broken.on('error', () => undefined);
    const mine = await keyOf();
    expect((await call(a.url, '/things/q', mine.key)).status).toBe(200);
    await a.usage.flusher.flush();
    await a.usage.mover.move();
    const offline = createKeyUsage({ service: 'thumbs', redis: broken, redisPrefix: prefix, dataSource, logger });
    expect((await offline.reader.ofKey(mine.id, { service: 'thumbs', dayCount: 30 })).today.routes).toEqual({
      'GET /things/:name': 1,
    });
    broken.disconnect();
  });
});
