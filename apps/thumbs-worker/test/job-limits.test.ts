import { makeJpeg, makePng, makeWebm } from '@pawlink/board/testing';
import { isThumbnailTimeout, THUMBNAIL_FAILURE_REASONS } from '@pawlink/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorkerHarness, type WorkerHarness } from './support.js';

let harness: WorkerHarness;
let nextId = 100;

beforeAll(async () => {
  harness = await startWorkerHarness('thumbslim', {
    env: {
      THUMBS_JOB_TIMEOUT_MS: '1000',
      THUMBS_MAX_DOWNLOAD_BYTES: String(64 * 1024),
      THUMBS_MAX_INPUT_PIXELS: String(300 * 300),
    },
  });
});

afterAll(() => harness?.close());

it.each(['gif', 'webp', 'png'] as const)(
  'ends a %s job that exceeds its time budget as a timeout, without retries',
  async (type) => {
    const { board } = harness;
    const post = board.addPost({ id: nextId++, ext: 'png' }, await makePng(50, 50));
    board.setMediaDelay(4000);
    try {
      const job = await harness.run(post.md5, type);
      expect(await job.getState()).toBe('failed');
      expect(job.failedReason).toMatch(/^timeout:/);
      expect(isThumbnailTimeout(job.failedReason)).toBe(true);
      expect(job.attemptsMade).toBe(1);
    } finally {
      board.setMediaDelay(0);
    }
  },
);

it('refuses a download over the size cap as unrecoverable', async () => {
  const post = harness.board.addPost({ id: 2, ext: 'webm' }, await makeWebm(2, 320, 240, { bitrate: '2M' }));
  expect(post.size).toBeGreaterThan(64 * 1024);
  const job = await harness.run(post.md5, 'gif');
  expect(job.attemptsMade).toBe(1);
  expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.tooLarge);
});

it('refuses an image over the pixel limit as unrecoverable', async () => {
  const post = harness.board.addPost({ id: 3, ext: 'jpg' }, await makeJpeg(400, 300));
  const job = await harness.run(post.md5, 'png');
  expect(job.attemptsMade).toBe(1);
  expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.tooLarge);
});

it('retries a download the board answers with 503, then completes', async () => {
  const post = harness.board.addPost({ id: 4, ext: 'png' }, await makePng(60, 40));
  harness.board.failNext(503, 1, { scope: 'media' });
  const job = await harness.run(post.md5, 'png');
  expect(await job.getState()).toBe('completed');
  expect(job.attemptsMade).toBe(2);
});
