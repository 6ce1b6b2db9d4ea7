import {
  createLogger,
  createRedis,
  createServiceApp,
  createServiceRuntime,
  loadBaseConfig,
  migrateDatabase,
  type Closer,
  type ReadOnlySwitch,
} from '@pawlink/service-kit';
import {
  createTestContext,
  request,
  serveForTest,
  startDependencyProxies,
  type DependencyProxies,
  type TcpProxy,
  type TestContext,
  type TestServer,
} from '@pawlink/test-kit';
import type { Request, Response } from 'express';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf, ApiKeyRepository, authDatabase, createAccessGuards } from '../src/index.js';

/*
 * The guards while a dependency is down, through TCP proxies in front of the real MariaDB and
 * Redis that the test cuts: keys known valid keep working through a database outage (revocation
 * resumes when it is back), and rate limits are counted in process while Redis is down.
 */

let ctx: TestContext;
let proxies: DependencyProxies;
let db: TcpProxy;
let cache: TcpProxy;
let server: TestServer;
let closers: Closer[];
let keys: ApiKeyRepository;
/** Redis itself, not through the proxy. */
let direct: RedisClient;

beforeAll(async () => {
  ctx = await createTestContext('auth-outages');
  const real = loadBaseConfig(ctx.env);
  await migrateDatabase(real.database, authDatabase);
  proxies = await startDependencyProxies(ctx.env);
  ({ db, redis: cache } = proxies);
  direct = createRedis(real.redis);
  const config = loadBaseConfig(proxies.env);
  const logger = createLogger('thumbs', 'error', { silent: true });
  const opened = createServiceRuntime(config, logger);
  closers = opened.closers;
  const redis = opened.runtime.redis('auth-outages');
  keys = new ApiKeyRepository(await opened.runtime.dataSource(authDatabase));
  const guards = createAccessGuards({
    service: 'thumbs',
    apiKeys: keys,
    redis,
    redisPrefix: config.redis.prefix,
    logger,
    keyCacheTtlMs: 100,
    limits: { buckets: { probe: { limit: 2, windowMs: 60_000 } } },
  });
  const { app, finalize } = createServiceApp({
    service: 'thumbs',
    config,
    logger,
    readOnly: { enabled: false } as ReadOnlySwitch,
  });
  app.get('/probe', guards.requireKey('thumbs'), guards.rateLimit('probe'), (_req: Request, res: Response) => {
    res.json({ success: true, keyId: apiKeyOf(res)?.id });
  });
  finalize();
  server = await serveForTest(app);
});

afterAll(async () => {
  proxies?.restore();
  await server?.close();
  for (const close of [...(closers ?? [])].reverse()) await close().catch(() => undefined);
  await proxies?.close();
  direct?.disconnect();
  await ctx?.cleanup();
});

const call = (key: string) =>
  request(`${server.url}/probe`, { headers: { authorization: key }, signal: AbortSignal.timeout(5000) });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a database outage', () => {
  it('keeps a key that was valid a moment ago working; a key never seen gets 503 1004; revocation applies once it is back', async () => {
    const { key, record } = await keys.create({
      name: 'known',
      contact: 'c',
      flags: ['thumbs'],
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
    });
    const { key: unseen } = await keys.create({
      name: 'unseen',
      contact: 'c',
      flags: ['thumbs'],
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
    });
    expect((await call(key)).status).toBe(200);
    await keys.update(record.id, { active: false });
    db.cut();
    try {
      await pause(150);
      expect((await call(key)).status).toBe(200);
      const never = await call(unseen);
      expect([never.status, never.body.code]).toEqual([503, 1004]);
    } finally {
      db.restore();
    }
    await expect.poll(async () => (await call(key)).body.code, { timeout: 5000, interval: 100 }).toBe(1011);
  });
});

describe('a Redis outage', () => {
  it('counts rate limits in process instead of failing requests, and shares them through Redis again after', async () => {
    const { key } = await keys.create({ name: 'limited', contact: 'c', flags: ['thumbs'], rateLimitGlobal: 0 });
    cache.cut();
    try {
      const first = await call(key);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await call(key)).status).toBe(200);
      const third = await call(key);
      expect([third.status, third.body.code]).toEqual([429, 1000]);
      expect(third.headers.get('x-ratelimit-bucket')).toBe('probe');
    } finally {
      cache.restore();
    }
    const { key: fresh, record } = await keys.create({
      name: 'after',
      contact: 'c',
      flags: ['thumbs'],
      rateLimitGlobal: 0,
    });
    const window = `${ctx.redisPrefix}ratelimit:thumbs:probe:{key:${record.id}}`;
    await expect
      .poll(async () => (await call(fresh)).status === 200 && (await direct.exists(window)) === 1, {
        timeout: 5000,
        interval: 100,
      })
      .toBe(true);
  });
});
