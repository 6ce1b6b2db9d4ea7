import { makeWebm, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { thumbnailJobId } from '@pawlink/contracts';
import { createLogger, createRedis } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createThumbnailWorker, type ThumbnailWorker } from '../src/index.js';
import { createQueue, enqueue, waitForJob, workerConfig } from './helpers.js';

let ctx: TestContext;
let board: FakeBoard;
let queueHandle: ReturnType<typeof createQueue>;
const workers: ThumbnailWorker[] = [];
const connections: Redis[] = [];

beforeAll(async () => {
  ctx = await createTestContext('thumbs2w');
  board = await startFakeBoard();
  queueHandle = createQueue(ctx);
  const config = workerConfig(ctx, board, { WORKER_CONCURRENCY: '1', BOARD_REQUESTS_PER_SECOND: '2' });
  const logger = createLogger('thumbs-worker', 'error', { silent: true });
  for (const name of ['worker-a', 'worker-b']) {
    const connection = createRedis(config.base.redis, { forQueue: true });
    connections.push(connection);
    workers.push(createThumbnailWorker(config, connection, logger, { name }));
  }
});

afterAll(async () => {
  for (const worker of workers) await worker.close();
  for (const connection of connections) connection.disconnect();
  await queueHandle?.queue.close();
  queueHandle?.connection.disconnect();
  await board?.close();
  await ctx?.cleanup();
});

it('two workers share the queue, and their board requests stay at ≤ 2 per second together', async () => {
  const posts = [];
  for (let i = 0; i < 6; i++) posts.push(board.addPost({ id: 100 + i, ext: 'webm' }, await makeWebm(1, 96, 64)));
  for (const post of posts) await enqueue(queueHandle.queue, post.md5, 'gif');

  const jobs = await Promise.all(posts.map((post) => waitForJob(queueHandle.queue, thumbnailJobId(post.md5, 'gif'))));
  expect(jobs.map((job) => job.failedReason)).toEqual(posts.map(() => undefined));
  expect(new Set(jobs.map((job) => job.processedBy))).toEqual(new Set(['worker-a', 'worker-b']));

  const apiTimes = board.requests.filter((r) => !r.path.startsWith('/data/')).map((r) => r.at).sort((a, b) => a - b);
  expect(apiTimes).toHaveLength(6);
  // six slots 500 ms apart span 2.5 s; the margin absorbs scheduling stalls of this process
  expect(apiTimes[5]! - apiTimes[0]!).toBeGreaterThanOrEqual(1500);
}, 60_000);
