import { makeSolidAnimatedGif, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
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
let worker: ThumbnailWorker;
let connection: Redis;

beforeAll(async () => {
  ctx = await createTestContext('thumbsbudget');
  board = await startFakeBoard();
  queueHandle = createQueue(ctx);
  const config = workerConfig(ctx, board, { THUMBS_MAX_INPUT_PIXELS: String(300 * 300), THUMBS_JOB_TIMEOUT_MS: '30000' });
  connection = createRedis(config.base.redis, { forQueue: true });
  worker = createThumbnailWorker(config, connection, createLogger('thumbs-worker', 'error', { silent: true }));
});

afterAll(async () => {
  await worker?.close();
  connection?.disconnect();
  await queueHandle?.queue.close();
  queueHandle?.connection.disconnect();
  await board?.close();
  await ctx?.cleanup();
});

it('decodes fewer pages of an animation whose pages together exceed 4× the pixel limit', async () => {
  // 280×280 = 78 400 px per page, under the 90 000 limit; 4× the limit affords 4 of the 30 pages in 3 s.
  const post = board.addPost({ id: 1, ext: 'gif' }, await makeSolidAnimatedGif(60, 280, 280));
  await enqueue(queueHandle.queue, post.md5, 'gif');
  const job = await waitForJob(queueHandle.queue, thumbnailJobId(post.md5, 'gif'));
  expect(job.failedReason ?? '').toBe('');
  expect(job.returnvalue?.frames).toBeGreaterThan(1);
  expect(job.returnvalue?.frames).toBeLessThanOrEqual(4);
});
