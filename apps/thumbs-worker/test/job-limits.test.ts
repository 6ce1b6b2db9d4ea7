import { makeJpeg, makePng, makeWebm, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { isThumbnailTimeout, thumbnailJobId } from '@pawlink/contracts';
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
  ctx = await createTestContext('thumbslim');
  board = await startFakeBoard();
  queueHandle = createQueue(ctx);
  const config = workerConfig(ctx, board, {
    THUMBS_JOB_TIMEOUT_MS: '1000',
    THUMBS_MAX_DOWNLOAD_BYTES: String(64 * 1024),
    THUMBS_MAX_INPUT_PIXELS: String(300 * 300),
  });
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

it('ends a job that exceeds its time budget as a timeout, without retries', async () => {
  const post = board.addPost({ id: 1, ext: 'png' }, await makePng(50, 50));
  board.setMediaDelay(4000);
  try {
    await enqueue(queueHandle.queue, post.md5, 'gif');
    const job = await waitForJob(queueHandle.queue, thumbnailJobId(post.md5, 'gif'));
    expect(await job.getState()).toBe('failed');
    expect(job.failedReason).toMatch(/^timeout:/);
    expect(isThumbnailTimeout(job.failedReason)).toBe(true);
    expect(job.attemptsMade).toBe(1);
  } finally {
    board.setMediaDelay(0);
  }
});

it('refuses a download over the size cap as unrecoverable', async () => {
  const post = board.addPost({ id: 2, ext: 'webm' }, await makeWebm(2, 320, 240, { bitrate: '2M' }));
  expect(post.size).toBeGreaterThan(64 * 1024);
  await enqueue(queueHandle.queue, post.md5, 'gif');
  const job = await waitForJob(queueHandle.queue, thumbnailJobId(post.md5, 'gif'));
  expect(job.attemptsMade).toBe(1);
  expect(job.failedReason).toMatch(/over the 65536 byte limit/);
});

it('refuses an image over the pixel limit as unrecoverable', async () => {
  const post = board.addPost({ id: 3, ext: 'jpg' }, await makeJpeg(400, 300));
  await enqueue(queueHandle.queue, post.md5, 'png');
  const job = await waitForJob(queueHandle.queue, thumbnailJobId(post.md5, 'png'));
  expect(job.attemptsMade).toBe(1);
  expect(job.failedReason).toMatch(/over the 90000 pixel limit/);
});

it('retries a download the board answers with 503, then completes', async () => {
  const post = board.addPost({ id: 4, ext: 'png' }, await makePng(60, 40));
  board.failNext(503, 1, { scope: 'media' });
  await enqueue(queueHandle.queue, post.md5, 'png');
  const job = await waitForJob(queueHandle.queue, thumbnailJobId(post.md5, 'png'));
  expect(await job.getState()).toBe('completed');
  expect(job.attemptsMade).toBe(2);
});
