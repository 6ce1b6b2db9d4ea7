import { makeSolidAnimatedGif } from '@pawlink/board/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorkerHarness, type WorkerHarness } from './support.js';

let harness: WorkerHarness;

beforeAll(async () => {
  harness = await startWorkerHarness('thumbsbudget', {
    env: { THUMBS_MAX_INPUT_PIXELS: String(300 * 300), THUMBS_JOB_TIMEOUT_MS: '30000' },
  });
});

afterAll(() => harness?.close());

it('decodes fewer pages of an animation whose pages together exceed 4× the pixel limit', async () => {
  // 280×280 = 78 400 px per page, under the 90 000 limit; 4× the limit affords 4 of the 30 pages in 3 s.
  const post = harness.board.addPost({ id: 1, ext: 'gif' }, await makeSolidAnimatedGif(60, 280, 280));
  const job = await harness.run(post.md5, 'gif');
  expect(job.failedReason ?? '').toBe('');
  expect(job.returnvalue?.frames).toBeGreaterThan(1);
  expect(job.returnvalue?.frames).toBeLessThanOrEqual(4);
});
