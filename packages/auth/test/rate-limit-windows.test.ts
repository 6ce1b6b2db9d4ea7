import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { RedisRateLimitWindows } from '../src/repositories/rate-limit.repository.js';

let ctx: TestContext;
let redis: Redis;
let scriptCalls = 0;

beforeAll(async () => {
  ctx = await createTestContext('rlwindows');
  redis = new Redis(ctx.env.REDIS_URL!, { enableAutoPipelining: true });
  // Counts the script calls the windows make (the hit script is the only one these tests run).
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command: { name: string }, ...rest: unknown[]) => {
    if (command.name === 'evalsha' || command.name === 'eval') scriptCalls++;
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  };
});

afterAll(async () => {
  await redis.quit();
  await ctx.cleanup();
});

const windowsOf = (id: string) => [
  { key: `probe:route:{key:${id}}`, windowMs: 60_000 },
  { key: `probe:global:{key:${id}}`, windowMs: 120_000 },
];

describe('Redis rate-limit windows', () => {
  it('count the hits of one turn with one script call, each hit getting its own count', async () => {
    const windows = new RedisRateLimitWindows(redis, `${ctx.redisPrefix}rl1:`);
    await windows.hit(windowsOf('warm')); // loads the script, so the call below is one EVALSHA
    scriptCalls = 0;
    const hits = await Promise.all([
      ...Array.from({ length: 40 }, () => windows.hit(windowsOf('a'))),
      ...Array.from({ length: 10 }, () => windows.hit(windowsOf('b'))),
      windows.hit([{ key: 'probe:only:{key:c}', windowMs: 5_000 }]),
    ]);
    expect(scriptCalls).toBe(1);
    const countsOf = (from: number, to: number, window: number) =>
      hits
        .slice(from, to)
        .map((states) => states[window]!.count)
        .sort((x, y) => x - y);
    expect(countsOf(0, 40, 0)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(countsOf(0, 40, 1)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(countsOf(40, 50, 0)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(hits[50]).toHaveLength(1);
    expect(hits[50]![0]!.count).toBe(1);
    // Each window keeps its own length.
    expect(hits[0][0]!.resetInMs).toBeLessThanOrEqual(60_000);
    expect(hits[0][1]!.resetInMs).toBeGreaterThan(60_000);
    expect(hits[50]![0]!.resetInMs).toBeLessThanOrEqual(5_000);
  });

  it('splits a turn larger than one call into several, still counting every hit once', async () => {
    const windows = new RedisRateLimitWindows(redis, `${ctx.redisPrefix}rl2:`);
    await windows.hit(windowsOf('warm'));
    scriptCalls = 0;
    const hits = await Promise.all(Array.from({ length: 600 }, () => windows.hit(windowsOf('many'))));
    expect(scriptCalls).toBe(3); // 512 keys a call: 256 hits of two windows
    expect(hits.map((states) => states[0]!.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 600 }, (_, i) => i + 1),
    );
    expect(Number(await redis.get(`${ctx.redisPrefix}rl2:probe:global:{key:many}`))).toBe(600);
  });

  it('fails every hit of a call whose script fails, and counts the next turn normally', async () => {
    const windows = new RedisRateLimitWindows(redis, `${ctx.redisPrefix}rl3:`);
    // A window key holding a non-number makes INCR, and so the whole script, fail.
    await redis.set(`${ctx.redisPrefix}rl3:probe:route:{key:bad}`, 'not a number');
    const results = await Promise.allSettled([windows.hit(windowsOf('bad')), windows.hit(windowsOf('good'))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    const [route] = await windows.hit(windowsOf('good'));
    expect(route!.count).toBeGreaterThanOrEqual(1);
  });

  it('refuses a hit of no window or of more than two', async () => {
    const windows = new RedisRateLimitWindows(redis, `${ctx.redisPrefix}rl4:`);
    await expect(windows.hit([])).rejects.toThrow(RangeError);
    await expect(windows.hit([...windowsOf('x'), { key: 'third', windowMs: 1 }])).rejects.toThrow(RangeError);
  });
});
