import { ApiKeyRepository, authDatabase, PendingUsageRepository, UsageRepository } from '@pawlink/auth';
import { createDataSource, createRedis, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './run-admin.js';

let ctx: TestContext;
let dataSource: DataSource;
let redis: RedisClient;
let keys: ApiKeyRepository;

const DAY_MS = 86_400_000;
const day = (ago: number) => new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  ctx = await createTestContext('admin-usage');
  expect((await runAdmin(ctx.env, ['migrate'])).code).toBe(0);
  const config = loadBaseConfig(ctx.env);
  dataSource = createDataSource(config.database, authDatabase);
  await dataSource.initialize();
  redis = createRedis(config.redis);
  keys = new ApiKeyRepository(dataSource);
});

afterAll(async () => {
  redis.disconnect();
  await dataSource.destroy();
  await ctx.cleanup();
});

const newKey = async () =>
  (await keys.create({ name: 'Usage', contact: 'usage@example.com', flags: ['images_bulk'] })).record.id;

describe('bin/admin apikey usage', () => {
  it("prints a key's requests per day and route from MySQL and Redis, all services, and no other key's", async () => {
    const id = await newKey();
    const other = await newKey();
    // Five days ago and yesterday: already in MySQL; today: still waiting in Redis.
    await new UsageRepository(dataSource).applyBatch(
      `batch-${id}`,
      [
        { keyId: id, day: day(5), field: 'images GET /:category', count: 4 },
        { keyId: id, day: day(1), field: 'shortener GET /:code.json', count: 2 },
        { keyId: other, day: day(1), field: 'images GET /:category', count: 99 },
      ],
      new Date(),
    );
    const pending = new PendingUsageRepository(redis, ctx.redisPrefix);
    await pending.add(`flush-${id}`, [
      { keyId: id, day: day(0), field: 'images GET /:category', count: 3 },
      { keyId: id, day: day(0), field: 'thumbs POST /create', count: 1 },
      { keyId: other, day: day(0), field: 'thumbs POST /create', count: 50 },
    ]);

    const result = await runAdmin(ctx.env, ['apikey', 'usage', String(id)]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      `API key ${id}: 10 requests in the last 30 UTC days up to ${day(0)} (all services)`,
      `${day(5)}  4`,
      '  images GET /:category  4',
      `${day(1)}  2`,
      '  shortener GET /:code.json  2',
      `${day(0)}  4`,
      '  images GET /:category  3',
      '  thumbs POST /create  1',
    ]);

    const short = await runAdmin(ctx.env, ['apikey', 'usage', String(id), '--days', '2']);
    expect(short.code).toBe(0);
    expect(short.stdout).toContain(`API key ${id}: 6 requests in the last 2 UTC days`);
    expect(short.stdout).not.toContain(day(5));
  });

  it('prints routes as docs/api.md names them, counts recorded under their old internal names included', async () => {
    const id = await newKey();
    await new UsageRepository(dataSource).applyBatch(
      `batch-renamed-${id}`,
      [
        { keyId: id, day: day(1), field: 'images GET /*splat', count: 2 },
        { keyId: id, day: day(1), field: 'images GET /:category', count: 1 },
        { keyId: id, day: day(1), field: 'thumbs GET /check/:first/:second', count: 3 },
      ],
      new Date(),
    );
    const result = await runAdmin(ctx.env, ['apikey', 'usage', String(id)]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').slice(1)).toEqual([
      `${day(1)}  6`,
      '  images GET /:category  3',
      '  thumbs GET /check/:md5/:type  3',
    ]);
    expect(result.stdout).not.toMatch(/splat|:first|\*/);
  });

  it('says so when a key has no requests', async () => {
    const id = await newKey();
    const result = await runAdmin(ctx.env, ['apikey', 'usage', String(id)]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(
      `API key ${id}: 0 requests in the last 30 UTC days up to ${day(0)} (all services).`,
    );
  });

  it('fails with exit 1 for a key that does not exist or too many days', async () => {
    const missing = await runAdmin(ctx.env, ['apikey', 'usage', '999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No API key with id 999999');
    const tooMany = await runAdmin(ctx.env, ['apikey', 'usage', String(await newKey()), '--days', '401']);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain('--days must be at most 400');
  });

  it.each([
    [['apikey', 'usage']],
    [['apikey', 'usage', 'abc']],
    [['apikey', 'usage', '1', '--days', '0']],
    [['apikey', 'usage', '1', '--days', 'many']],
  ])('rejects bad usage %j with exit 2', async (args) => {
    const result = await runAdmin(ctx.env, args);
    expect(result.code).toBe(2);
    expect(result.stderr.length).toBeGreaterThan(0);
  });
});
