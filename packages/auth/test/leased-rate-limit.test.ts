import { createRedis, loadBaseConfig } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { createTestContext, request, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProbeApp } from './probe-app.js';

/*
 * Two real instances of a key-protected service on one Redis, with leased quotas (docs/adr/0021):
 * together they admit the limit exactly, however the requests are spread.
 */

let ctx: TestContext;
let first: Awaited<ReturnType<typeof startProbeApp>>;
let second: Awaited<ReturnType<typeof startProbeApp>>;
let redis: RedisClient;
let prefix: string;

beforeAll(async () => {
  ctx = await createTestContext('leased-limits');
  const limits = { probe: { limit: 200, windowMs: 60_000 }, global: { limit: 0, windowMs: 60_000 } };
  first = await startProbeApp(ctx, limits);
  second = await startProbeApp(ctx, limits);
  const config = loadBaseConfig(ctx.env);
  redis = createRedis(config.redis);
  prefix = config.redis.prefix;
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await redis?.quit();
  await ctx.cleanup();
});

const call = (base: string, key: string) => request(`${base}/probe`, { headers: { authorization: key } });

describe('leased rate limits on two instances', () => {
  it('admit exactly the limit between them, each counting down to 0 before its 429', async () => {
    const { key, record } = await first.keys.create({ name: 'leased', contact: 'c', flags: ['thumbs'] });
    // Waves of concurrent requests to both instances: the key is busy, so the instances lease blocks.
    let admitted = 0;
    for (let wave = 0; wave < 10; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => call(i % 3 === 0 ? second.url : first.url, key)),
      );
      for (const res of answers) {
        expect([200, 429]).toContain(res.status);
        const remaining = Number(res.headers.get('x-ratelimit-remaining'));
        expect(remaining).toBeGreaterThanOrEqual(0);
        expect(remaining).toBeLessThanOrEqual(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('200');
        if (res.status === 200) admitted++;
        else expect(res.body).toMatchObject({ code: 1000, info: { bucket: 'probe', remaining: 0, global: false } });
      }
    }
    const windowKey = `${prefix}ratelimit:thumbs:probe:{key:${record.id}}`;
    expect(Number(await redis.get(windowKey))).toBeLessThanOrEqual(200);
    expect(admitted).toBeLessThanOrEqual(200);
    // Each instance, asked until it refuses, hands out what it still holds, one fewer remaining each time.
    for (const base of [first.url, second.url]) {
      let previous: number | undefined;
      for (;;) {
        const res = await call(base, key);
        const remaining = Number(res.headers.get('x-ratelimit-remaining'));
        if (res.status === 429) {
          expect(remaining).toBe(0);
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          break;
        }
        expect(res.status).toBe(200);
        if (previous !== undefined && base === second.url) expect(remaining).toBe(previous - 1);
        previous = remaining;
        admitted++;
      }
      if (base === second.url && previous !== undefined) expect(previous).toBe(0);
    }
    expect(admitted).toBe(200);
    expect(Number(await redis.get(windowKey))).toBe(200);
  });

  it('count nothing in Redis for a window without a limit', async () => {
    const { key, record } = await first.keys.create({ name: 'unlimited', contact: 'c', flags: ['thumbs'] });
    for (let i = 0; i < 3; i++) expect((await call(second.url, key)).status).toBe(200);
    expect(await redis.exists(`${prefix}ratelimit:thumbs:global:{key:${record.id}}`)).toBe(0);
    expect(await redis.exists(`${prefix}ratelimit:thumbs:probe:{key:${record.id}}`)).toBe(1);
  });

  it('let a request of several units spend what the instance holds with what is left in Redis, all or nothing', async () => {
    const { key, record } = await first.keys.create({ name: 'units', contact: 'c', flags: ['thumbs'] });
    // A busy key: after this burst the instance holds units of its window.
    const burst = await Promise.all(Array.from({ length: 41 }, () => call(first.url, key)));
    expect(burst.every((res) => res.status === 200)).toBe(true);
    const units = (n: number) => request(`${first.url}/units?n=${n}`, { headers: { authorization: key } });
    const tooMany = await units(200 - 41 + 1);
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toMatchObject({ code: 1000, info: { remaining: 200 - 41 } });
    // Refused whole: what the instance held is still there, so the rest fits exactly.
    const rest = await units(200 - 41);
    expect(rest.status).toBe(200);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(await redis.get(`${prefix}ratelimit:thumbs:probe:{key:${record.id}}`))).toBe(200);
    expect((await call(first.url, key)).status).toBe(429);
  });
});
