import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBoardClient } from '../src/index.js';
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
  // server-side arrival times: any three consecutive requests span about a second or more
  const tolerance = 200;
  for (let i = 0; i + 2 < times.length; i++) {
    expect(times[i + 2]! - times[i]!).toBeGreaterThanOrEqual(1000 - tolerance);
  }
}, 30_000);
