import {
  createLogger,
  createRedis,
  createServiceApp,
  loadBaseConfig,
  ReadOnlySwitch,
  requireWritable,
} from '@pawlink/service-kit';
import { createTestContext, request, serveForTest, type TestContext, type TestServer } from '@pawlink/test-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './run-admin.js';

let ctx: TestContext;
let redis: RedisClient;
let readOnly: ReadOnlySwitch;
let server: TestServer;

beforeAll(async () => {
  ctx = await createTestContext('admin-ro');
  const config = loadBaseConfig(ctx.env);
  redis = createRedis(config.redis);
  // A running service polling the switch exactly as the services do.
  readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'shortener', false);
  await readOnly.start();
  const { app, finalize } = createServiceApp({
    service: 'shortener',
    logger: createLogger('shortener', 'error', { silent: true }),
    readOnly,
    config,
  });
  app.post('/create', requireWritable(readOnly), (_req, res) => {
    res.status(201).json({ success: true });
  });
  finalize();
  server = await serveForTest(app);
});

afterAll(async () => {
  readOnly.stop();
  await server.close();
  redis.disconnect();
  await ctx.cleanup();
});

describe('bin/admin readonly', () => {
  it('status shows the env default before anything is stored', async () => {
    const result = await runAdmin(ctx.env, ['readonly', 'status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'shortener: off (READ_ONLY default)\nimages: off (READ_ONLY default)\nthumbs: off (READ_ONLY default)\n',
    );
    const withDefault = await runAdmin({ ...ctx.env, READ_ONLY: 'true' }, [
      'readonly',
      'status',
      '--service',
      'images',
    ]);
    expect(withDefault.stdout).toBe('images: on (READ_ONLY default)\n');
  });

  it('on is seen by a running service without restart, off lifts it', async () => {
    expect((await request(`${server.url}/create`, { method: 'POST' })).status).toBe(201);
    expect((await runAdmin(ctx.env, ['readonly', 'on', '--service', 'shortener'])).code).toBe(0);
    await expect
      .poll(async () => (await request(`${server.url}/create`, { method: 'POST' })).body?.code, {
        timeout: 3_000,
        interval: 100,
      })
      .toBe(1003);
    const status = await runAdmin(ctx.env, ['readonly', 'status', '--service', 'shortener']);
    expect(status.stdout).toBe('shortener: on\n');
    expect((await runAdmin(ctx.env, ['readonly', 'off', '--service', 'shortener'])).code).toBe(0);
    await expect
      .poll(async () => (await request(`${server.url}/create`, { method: 'POST' })).status, {
        timeout: 3_000,
        interval: 100,
      })
      .toBe(201);
  });

  it('--service all (the default) switches every service', async () => {
    expect((await runAdmin(ctx.env, ['readonly', 'on'])).code).toBe(0);
    expect((await runAdmin(ctx.env, ['readonly', 'status'])).stdout).toBe('shortener: on\nimages: on\nthumbs: on\n');
    expect((await runAdmin(ctx.env, ['readonly', 'off', '--service', 'all'])).code).toBe(0);
    expect((await runAdmin(ctx.env, ['readonly', 'status'])).stdout).toBe('shortener: off\nimages: off\nthumbs: off\n');
  });

  it.each([
    [['readonly', 'on', '--service', 'billing']],
    [['readonly', 'maybe']],
    [['readonly']],
    [['readonly', 'off', 'extra']],
  ])('rejects %j with exit 2', async (args) => {
    const result = await runAdmin(ctx.env, args);
    expect(result.code).toBe(2);
  });
});
