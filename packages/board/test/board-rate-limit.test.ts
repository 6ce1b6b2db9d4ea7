import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BoardRateLimiter,
  BoardShareUsedError,
  BoardUnavailableError,
  createBoardClient,
  isRefusal,
} from '../src/index.js';
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
    return createBoardClient({
      baseUrl: board.url,
      staticUrl: board.staticUrl,
      userAgent: 'PawlinkTest/1.0',
      redis,
      redisPrefix: ctx.redisPrefix,
      requestsPerSecond: 2,
    });
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
  const client = createBoardClient({
    baseUrl: board.url,
    staticUrl: board.staticUrl,
    userAgent: 'PawlinkTest/1.0',
    redis,
    redisPrefix: prefix,
    maxSlotWaitMs: 1000,
  });
  const before = board.requests.length;
  await expect(client.getPostById(4242)).rejects.toBeInstanceOf(BoardUnavailableError);
  expect(board.requests.length).toBe(before);
});

it('a requester may hold at most its share of the slots booked ahead; concurrent reservations cannot exceed it', async () => {
  const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  connections.push(redis);
  const key = `${ctx.redisPrefix}share-slots`;
  const limiter = new BoardRateLimiter(redis, key, 2);
  const greedy = { id: 'key:1', maxHeldSlots: 3 };
  // someone else's slot first, so every slot of the test lies ahead (a slot due now is not held)
  await limiter.reserveSlot();
  const results = await Promise.all(Array.from({ length: 20 }, () => limiter.reserveFor([greedy], 60_000)));
  const granted = results.filter((r) => !isRefusal(r));
  expect(granted).toHaveLength(3);
  expect(results.filter(isRefusal).every((r) => r.reason === 'share' && r.requester === greedy)).toBe(true);
  expect(await redis.zcard(limiter.heldSlotsKey(greedy))).toBeLessThanOrEqual(3);

  // A refusal reserved nothing: the next requester gets the slot right after the greedy one's.
  const lastGranted = Math.max(...granted.map((r) => (r as { slotAt: number }).slotAt));
  const other = await limiter.reserveFor([{ id: 'key:2', maxHeldSlots: 3 }], 60_000);
  expect(other).toMatchObject({ slotAt: lastGranted + 500 });
  expect(await redis.pttl(limiter.heldSlotsKey(greedy))).toBeGreaterThan(0);
});

it('is refused when any one of its requesters (key or IP) holds its share, and the refusal names that requester', async () => {
  const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  connections.push(redis);
  const limiter = new BoardRateLimiter(redis, `${ctx.redisPrefix}share-ip`, 2);
  const ip = { id: 'ip:203.0.113.9', maxHeldSlots: 2 };
  await limiter.reserveSlot();
  const first = await limiter.reserveFor([{ id: 'key:10', maxHeldSlots: 2 }, ip], 60_000);
  if (isRefusal(first)) throw new Error(`refused: ${JSON.stringify(first)}`);
  expect(isRefusal(await limiter.reserveFor([{ id: 'key:11', maxHeldSlots: 2 }, ip], 60_000))).toBe(false);
  // a third key behind the same IP: the IP's share is spent until its earliest slot has passed
  const refusal = await limiter.reserveFor([{ id: 'key:12', maxHeldSlots: 2 }, ip], 60_000);
  expect(refusal).toEqual({ reason: 'share', requester: ip, retryAfterMs: expect.any(Number) });
  const { retryAfterMs } = refusal as { retryAfterMs: number };
  expect(retryAfterMs).toBeGreaterThan(0);
  // No later than the wait the first slot had when it was booked (time has only gone on since).
  expect(retryAfterMs).toBeLessThanOrEqual(first.waitMs);
  // the same key from another IP is fine
  expect(
    isRefusal(
      await limiter.reserveFor(
        [
          { id: 'key:12', maxHeldSlots: 2 },
          { id: 'ip:198.51.100.7', maxHeldSlots: 2 },
        ],
        60_000,
      ),
    ),
  ).toBe(false);
});

it('a requester books again once its slots have come', async () => {
  const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  connections.push(redis);
  const limiter = new BoardRateLimiter(redis, `${ctx.redisPrefix}share-release`, 10);
  const requester = { id: 'key:20', maxHeldSlots: 1 };
  // Slot 1 is now (held until now passes), slot 2 is 100 ms on.
  expect(await limiter.acquireFor([requester])).toBeNull();
  expect(await limiter.acquireFor([requester])).toBeNull();
});

it("a client lookup refused for its requester's share fails with BoardShareUsedError (when to ask again) without asking the board", async () => {
  const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  connections.push(redis);
  const prefix = `${ctx.redisPrefix}share-client:`;
  const requester = { id: 'key:30', maxHeldSlots: 1 };
  const limiter = new BoardRateLimiter(redis, `${prefix}board:ratelimit`, 2);
  // the budget is busy for 2 s, and the requester holds a slot at its end
  for (let i = 0; i < 4; i++) await limiter.reserveSlot();
  expect(isRefusal(await limiter.reserveFor([requester]))).toBe(false);
  const client = createBoardClient({
    baseUrl: board.url,
    staticUrl: board.staticUrl,
    userAgent: 'PawlinkTest/1.0',
    redis,
    redisPrefix: prefix,
    maxSlotWaitMs: 10_000,
  });
  const before = board.requests.length;
  const refused = await client.resolveMd5(4343, { requesters: [requester] }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(BoardShareUsedError);
  expect(refused).toMatchObject({ requesterId: 'key:30', retryAfterMs: expect.any(Number) });
  expect((refused as BoardShareUsedError).retryAfterMs).toBeGreaterThan(0);
  expect((refused as BoardShareUsedError).retryAfterMs).toBeLessThanOrEqual(2000);
  expect(board.requests.length).toBe(before);
});
