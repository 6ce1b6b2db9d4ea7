import { makeWebm } from '@pawlink/board/testing';
import { thumbnailJobId } from '@pawlink/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, startWorkerHarness, waitForJob, type WorkerHarness } from './support.js';

let harness: WorkerHarness;

beforeAll(async () => {
  harness = await startWorkerHarness('thumbs2w', {
    env: { WORKER_CONCURRENCY: '1', BOARD_REQUESTS_PER_SECOND: '2' },
    workers: ['worker-a', 'worker-b'],
  });
});

afterAll(() => harness?.close());

it('two workers share the queue, and their board requests stay at ≤ 2 per second together', async () => {
  const { board, queue } = harness;
  const posts = [];
  for (let i = 0; i < 6; i++) posts.push(board.addPost({ id: 100 + i, ext: 'webm' }, await makeWebm(1, 96, 64)));
  for (const post of posts) await enqueue(queue, post.md5, 'gif');

  const jobs = await Promise.all(posts.map((post) => waitForJob(queue, thumbnailJobId(post.md5, 'gif'))));
  expect(jobs.map((job) => job.failedReason)).toEqual(posts.map(() => undefined));
  expect(new Set(jobs.map((job) => job.processedBy))).toEqual(new Set(['worker-a', 'worker-b']));

  const apiTimes = board.requests
    .filter((r) => !r.path.startsWith('/data/'))
    .map((r) => r.at)
    .sort((a, b) => a - b);
  expect(apiTimes).toHaveLength(6);
  // six slots 500 ms apart span 2.5 s; the margin absorbs scheduling stalls of this process
  expect(apiTimes[5]! - apiTimes[0]!).toBeGreaterThanOrEqual(1500);
}, 60_000);
