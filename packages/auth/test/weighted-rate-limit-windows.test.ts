import { createLogger, createRedis, loadBaseConfig } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LocalRateLimitWindows,
  RedisRateLimitWindows,
  type RateLimitWindows,
  type WeightedRateLimitWindows,
} from '../src/repositories/rate-limit.repository.js';
import { ResilientRateLimitWindows } from '../src/repositories/resilient-rate-limit-windows.repository.js';

/*
 * `takeIfFits`: several units at once, in every window or in none (a bulk create's items in the
 * route window, the request in the global one), against real Redis and in process alike.
 */

let ctx: TestContext;
let redis: RedisClient;
let prefix: string;
beforeAll(async () => {
  ctx = await createTestContext('auth-weighted');
  const config = loadBaseConfig(ctx.env);
  redis = createRedis(config.redis);
  prefix = `${config.redis.prefix}ratelimit:`;
});
afterAll(async () => {
  await redis.quit();
  await ctx.cleanup();
});

let n = 0;
/** Two windows of one identity (one hash tag), fresh for each test. */
const windowsOf = (route: { units: number; limit: number }, global: { units: number; limit: number }) => {
  const identity = `{key:${++n}}`;
  return [
    { key: `svc:bucket:${identity}`, windowMs: 60_000, ...route },
    { key: `svc:global:${identity}`, windowMs: 60_000, ...global },
  ];
};

const kinds: Array<[string, () => RateLimitWindows & WeightedRateLimitWindows]> = [
  ['Redis', () => new RedisRateLimitWindows(redis, prefix)],
  ['in process', () => new LocalRateLimitWindows()],
];

for (const [kind, make] of kinds) {
  describe(`takeIfFits (${kind})`, () => {
    it('takes the units of every window while they fit, then none once one of them does not', async () => {
      const windows = make();
      const spec = windowsOf({ units: 5, limit: 8 }, { units: 1, limit: 100 });
      const first = await windows.takeIfFits(spec);
      expect(first.taken).toBe(true);
      expect(first.states.map((s) => s.count)).toEqual([5, 1]);
      expect(first.states.every((s) => s.resetInMs > 0 && s.resetInMs <= 60_000)).toBe(true);
      // 5 + 5 > 8: nothing is taken, in either window, and the states say what is there.
      const refused = await windows.takeIfFits(spec);
      expect(refused.taken).toBe(false);
      expect(refused.states.map((s) => s.count)).toEqual([5, 1]);
      expect((await windows.peek(spec.map((w) => w.key))).map((s) => s.count)).toEqual([5, 1]);
      // 3 fits exactly.
      const fits = await windows.takeIfFits([{ ...spec[0]!, units: 3 }, spec[1]!]);
      expect([fits.taken, ...fits.states.map((s) => s.count)]).toEqual([true, 8, 2]);
    });

    it('refuses when the second window is full, taking nothing from the first', async () => {
      const windows = make();
      const spec = windowsOf({ units: 2, limit: 10 }, { units: 1, limit: 1 });
      expect((await windows.takeIfFits(spec)).taken).toBe(true);
      const refused = await windows.takeIfFits(spec);
      expect([refused.taken, ...refused.states.map((s) => s.count)]).toEqual([false, 2, 1]);
    });

    it('treats limit 0 as unlimited, and a request larger than the limit as never fitting', async () => {
      const windows = make();
      const unlimited = windowsOf({ units: 1000, limit: 0 }, { units: 1, limit: 0 });
      expect((await windows.takeIfFits(unlimited)).states.map((s) => s.count)).toEqual([1000, 1]);
      const tooLarge = windowsOf({ units: 9, limit: 8 }, { units: 1, limit: 0 });
      const refused = await windows.takeIfFits(tooLarge);
      expect(refused).toEqual({
        taken: false,
        states: [
          { count: 0, resetInMs: 0 },
          { count: 0, resetInMs: 0 },
        ],
      });
    });

    it('adds to what plain hits counted in the same window', async () => {
      const windows = make();
      const spec = windowsOf({ units: 3, limit: 5 }, { units: 1, limit: 0 });
      await windows.hit([
        { key: spec[0]!.key, windowMs: 60_000 },
        { key: spec[1]!.key, windowMs: 60_000 },
      ]);
      await windows.hit([
        { key: spec[0]!.key, windowMs: 60_000 },
        { key: spec[1]!.key, windowMs: 60_000 },
      ]);
      expect((await windows.takeIfFits(spec)).states.map((s) => s.count)).toEqual([5, 3]);
      expect((await windows.takeIfFits([{ ...spec[0]!, units: 1 }, spec[1]!])).taken).toBe(false);
    });
  });
}

describe('takeIfFits through the resilient windows', () => {
  it('counts in process while Redis is unavailable', async () => {
    const down = {
      ...new LocalRateLimitWindows(),
      takeIfFits: () =>
        Promise.reject(Object.assign(new Error('Connection is closed.'), { name: 'MaxRetriesPerRequestError' })),
    } as unknown as RateLimitWindows;
    const local = new LocalRateLimitWindows();
    const windows = new ResilientRateLimitWindows(down, local, createLogger('thumbs', 'error', { silent: true }));
    const spec = windowsOf({ units: 4, limit: 5 }, { units: 1, limit: 0 });
    expect((await windows.takeIfFits(spec)).taken).toBe(true);
    expect((await windows.takeIfFits(spec)).taken).toBe(false);
    expect((await local.peek([spec[0]!.key]))[0]!.count).toBe(4);
  });

  it('passes other failures on', async () => {
    const broken = { takeIfFits: () => Promise.reject(new Error('a bug')) } as unknown as RateLimitWindows;
    const windows = new ResilientRateLimitWindows(
      broken,
      new LocalRateLimitWindows(),
      createLogger('thumbs', 'error', { silent: true }),
    );
    await expect(windows.takeIfFits(windowsOf({ units: 1, limit: 1 }, { units: 1, limit: 1 }))).rejects.toThrow(
      'a bug',
    );
  });
});
