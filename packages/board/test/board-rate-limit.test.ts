import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BoardRateLimiter, BoardUnavailableError, createBoardClient } from '../src/index.js';
import { startFakeBoard, type FakeBoard } from '../src/testing/index.js';

let ctx: TestContext;
let board: FakeBoard;
const connections: Redis[] = [];

beforeAll(async () => {
  ctx = await createTestContext('boardrl');
  board = await startFakeBoard();
});

afterAll(async () => {
  await board.close();
  for (const redis of connections) redis.disconnect();
  await ctx.cleanup();
});

it('keeps two clients on separate Redis connections at ≤ 2 requests per second together', async () => {
  const makeClient = () => {
    const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    connections.push(redis);
    return createBoardClient({ baseUrl: board.url, staticUrl: board.staticUrl, userAgent: 'PawlinkTest/1.0', redis, redisPrefix: ctx.redisPrefix, requestsPerSecond: 2 });
  };
  const a = makeClient();
  const b = makeClient();
  await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).getPostById(i + 1)));

  const times = board.requests.map((r) => r.at).sort((x, y) => x - y);
  expect(times).toHaveLength(10);
  // Slots are 500 ms apart, so the ten arrivals span 4.5 s; unlimited they would span a few ms.
  // Arrival times are taken in this (possibly CPU-starved) process, so a scheduling stall can
  // bunch a few arrivals together; the whole span is robust to that, pairwise gaps are not.
  expect(times[9]! - times[0]!).toBeGreaterThanOrEqual(3500);
}, 30_000);

it('hands out slots exactly 1/requestsPerSecond apart to limiters on different connections', async () => {
  const limiters = [0, 1].map(() => {
    const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    connections.push(redis);
    return new BoardRateLimiter(redis, `${ctx.redisPrefix}slots-test`, 2);
  });
  const slots = await Promise.all(Array.from({ length: 10 }, (_, i) => limiters[i % 2]!.reserveSlot()));
  const times = slots.map((s) => s.slotAt).sort((x, y) => x - y);
  expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(Array(9).fill(500));
  expect(Math.min(...slots.map((s) => s.waitMs))).toBeGreaterThanOrEqual(0);
});

it('reserves nothing when the next free slot is further away than the caller will wait', async () => {
  const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  connections.push(redis);
  const key = `${ctx.redisPrefix}capped-slots`;
  const limiter = new BoardRateLimiter(redis, key, 2);
  const booked = await Promise.all(Array.from({ length: 4 }, () => limiter.reserveSlot()));
  const bookedUntil = await redis.get(key);
  // Four slots booked 500 ms apart: the fifth is about 2 s away.
  expect(await limiter.reserveSlot(1000)).toBeNull();
  expect(await limiter.acquire(1000)).toBe(false);
  expect(await redis.get(key)).toBe(bookedUntil);
  const accepted = await limiter.reserveSlot(10_000);
  expect(accepted?.slotAt).toBe(Math.max(...booked.map((s) => s.slotAt)) + 500);
});

it('a client with maxSlotWaitMs fails fast with BoardUnavailableError instead of queueing behind a booked budget', async () => {
  const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  connections.push(redis);
  const prefix = `${ctx.redisPrefix}capped-client:`;
  const limiter = new BoardRateLimiter(redis, `${prefix}board:ratelimit`, 2);
  for (let i = 0; i < 10; i++) await limiter.reserveSlot();
  const client = createBoardClient({ baseUrl: board.url, staticUrl: board.staticUrl, userAgent: 'PawlinkTest/1.0', redis, redisPrefix: prefix, maxSlotWaitMs: 1000 });
  const before = board.requests.length;
  await expect(client.getPostById(4242)).rejects.toBeInstanceOf(BoardUnavailableError);
  expect(board.requests.length).toBe(before);
});
