import { createLogger, createRedis, createServiceApp, ReadOnlySwitch, setReadOnly } from '@pawlink/service-kit';
import { createTestContext, request, serveForTest, type TestContext } from '@pawlink/test-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccessGuards,
  hashApiKey,
  RATE_LIMIT_BUCKETS,
  registerGetStatusRoute,
  type ApiKeyRepository,
} from '../src/index.js';
import { migrateAuth } from './probe-app.js';

let ctx: TestContext;
let url: string;
let keys: ApiKeyRepository;
let redis: RedisClient;
let readOnly: ReadOnlySwitch;
let prefix: string;
let close: () => Promise<void>;

/** A thumbs-like service with the production buckets, GET /status and one limited probe route. */
beforeAll(async () => {
  ctx = await createTestContext('status');
  const auth = await migrateAuth(ctx);
  keys = auth.keys;
  prefix = auth.config.redis.prefix;
  const logger = createLogger('thumbs', 'error', { silent: true });
  redis = createRedis(auth.config.redis);
  readOnly = new ReadOnlySwitch(redis, prefix, 'thumbs', false);
  await readOnly.refresh();
  const guards = createAccessGuards({
    service: 'thumbs',
    apiKeys: keys,
    redis,
    redisPrefix: prefix,
    logger,
    keyCacheTtlMs: 0,
  });
  const { app, finalize } = createServiceApp({ service: 'thumbs', config: auth.config, logger, readOnly });
  registerGetStatusRoute(app, {
    service: 'thumbs',
    guards,
    readOnly,
    sections: [{ name: 'extra', build: ({ key }) => (key ? { keyName: key.name } : undefined) }],
  });
  app.get('/info', guards.optionalKey(), guards.rateLimit('thumbs.info'), (_req, res) => {
    res.json({ success: true });
  });
  finalize();
  const server = await serveForTest(app);
  url = server.url;
  close = async () => {
    await server.close();
    redis.disconnect();
    await auth.dataSource.destroy();
  };
});

afterAll(async () => {
  await close();
  await ctx.cleanup();
});

const get = (path: string, authorization?: string, method = 'GET') =>
  request(`${url}${path}`, { method, headers: authorization ? { authorization } : {} });

describe('GET /status', () => {
  it('answers anonymous requests with the read-only state and the IP limits of this service only', async () => {
    const res = await get('/status');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ success: true, data: { service: 'thumbs', readOnly: false, key: null } });
    expect(Object.keys(res.body.data.limits).sort()).toEqual([
      'global',
      'status',
      'thumbs.admin',
      'thumbs.admin-login',
      'thumbs.check',
      'thumbs.create',
      'thumbs.info',
    ]);
    expect(res.body.data.limits['thumbs.info']).toEqual({
      limit: RATE_LIMIT_BUCKETS['thumbs.info'].limit,
      remaining: RATE_LIMIT_BUCKETS['thumbs.info'].limit,
      reset: null,
      resetAfter: null,
      windowSeconds: 60,
    });
    expect(res.body.data).not.toHaveProperty('extra');
  });

  it('describes the key and its limits, never the key or its hash, and reading them counts nothing', async () => {
    const { key, record } = await keys.create({
      name: 'bot',
      contact: 'bot@example.com',
      flags: ['thumbs'],
      bulkLimit: 42,
      rateLimitRoute: 10,
    });
    for (let i = 0; i < 3; i++) expect((await get('/info', key)).status).toBe(200);
    const first = await get('/status', `Bearer ${key}`);
    expect(first.status).toBe(200);
    expect(first.body.data.key).toEqual({
      id: record.id,
      name: 'bot',
      flags: ['thumbs'],
      active: true,
      disabled: false,
      disabledReason: null,
      bulkLimit: 42,
    });
    expect(first.body.data.extra).toEqual({ keyName: 'bot' });
    const info = first.body.data.limits['thumbs.info'];
    expect(info).toMatchObject({ limit: 10, remaining: 7, windowSeconds: 60 });
    expect(info.resetAfter).toBeGreaterThan(0);
    expect(info.resetAfter).toBeLessThanOrEqual(60);
    expect(info.reset).toBeGreaterThan(Date.now() / 1000);
    // The status request itself is counted in `status` and `global`, like any request.
    expect(first.body.data.limits.status).toMatchObject({ limit: 10, remaining: 9 });
    expect(first.body.data.limits.global).toMatchObject({ limit: 600, remaining: 596 });
    expect(first.body.data.limits['thumbs.create']).toMatchObject({ limit: 10, remaining: 10, reset: null });
    const second = await get('/status', key);
    expect(second.body.data.limits['thumbs.info']).toMatchObject({ limit: 10, remaining: 7 });
    expect(second.body.data.limits.status).toMatchObject({ remaining: 8 });
    expect(first.text).not.toContain(key);
    expect(first.text).not.toContain(hashApiKey(key));
    expect(first.text).not.toContain('bot@example.com');
  });

  it('shows unlimited buckets as null limits', async () => {
    const { key } = await keys.create({ name: 'free', contact: 'f', flags: [], rateLimitRoute: 0, rateLimitGlobal: 0 });
    const res = await get('/status', key);
    expect(res.body.data.limits.global).toEqual({
      limit: null,
      remaining: null,
      reset: null,
      resetAfter: null,
      windowSeconds: 60,
    });
    expect(res.body.data.limits['thumbs.check']).toMatchObject({ limit: null, remaining: null });
  });

  it('refuses bad keys as every route does: 1010, 1011, 1012 with the reason', async () => {
    expect((await get('/status', 'pl_made_up')).body).toMatchObject({ success: false, code: 1010 });
    const inactive = await keys.create({ name: 'old', contact: 'o', flags: ['thumbs'] });
    await keys.update(inactive.record.id, { active: false });
    const res = await get('/status', inactive.key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1011);
    const disabled = await keys.create({ name: 'bad', contact: 'b', flags: ['thumbs'] });
    await keys.update(disabled.record.id, { disabled: true, disabledReason: 'spam' });
    const refused = await get('/status', disabled.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 1012, extra: { reason: 'spam' } });
  });

  it('has its own rate-limit bucket: 429 1000 in bucket status', async () => {
    const { key } = await keys.create({ name: 'eager', contact: 'e', flags: [], rateLimitRoute: 2 });
    expect((await get('/status', key)).status).toBe(200);
    expect((await get('/status', key)).status).toBe(200);
    const limited = await get('/status', key);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 1000, info: { bucket: 'status' } });
  });

  it('shows the read-only switch', async () => {
    await setReadOnly(redis, prefix, ['thumbs'], true);
    await readOnly.refresh();
    try {
      expect((await get('/status')).body.data.readOnly).toBe(true);
    } finally {
      await setReadOnly(redis, prefix, ['thumbs'], false);
      await readOnly.refresh();
    }
  });

  it('answers HEAD, and 405 with Allow for other methods', async () => {
    expect((await get('/status', undefined, 'HEAD')).status).toBe(200);
    const res = await get('/status', undefined, 'POST');
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
