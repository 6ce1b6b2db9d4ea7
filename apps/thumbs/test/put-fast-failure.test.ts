import { THUMBNAIL_QUEUE, type ThumbnailJobPayload } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { Queue, UnrecoverableError, type JobsOptions } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

let h: ThumbsHarness;
beforeAll(async () => {
  h = await startThumbs();
  h.startWorker(() => Promise.reject(new UnrecoverableError('corrupt: the file could not be decoded')));
});
afterAll(async () => {
  await h?.close();
});

it.each(['gif', 'webp'])(
  'a PUT that queues a %s job answers 202 even when a worker failed it before the API read it back; check then answers 500 1060',
  async (type) => {
    // This instance's queue only returns from add() once the job has failed: the race a fast
    // worker wins now and then, made certain.
    const url = await h.startAnotherInstance((connection, prefix) => {
      const queue = new Queue<ThumbnailJobPayload>(THUMBNAIL_QUEUE, { connection, prefix });
      const add = queue.add.bind(queue);
      queue.add = async (name: string, data: ThumbnailJobPayload, opts?: JobsOptions) => {
        const job = await add(name, data, opts);
        await waitFor(async () => ((await queue.getJobState(job.id ?? '')) === 'failed' ? true : undefined));
        return job;
      };
      return queue;
    });
    const md5 = md5For('fast-failure');
    const put = await request(`${url}/${md5}/${type}`, { method: 'PUT', headers: h.auth });
    expect(put.status, JSON.stringify(put.body)).toBe(202);
    expect(put.body).toMatchObject({
      success: true,
      status: 'processing',
      md5,
      checkURL: expect.stringContaining(`/check/${md5}/${type}`),
    });
    expect(put.headers.get('location')).toBe(put.body.checkURL);
    const check = await request(`${h.url}/check/${md5}/${type}`, { headers: h.auth });
    expect(check.status).toBe(500);
    expect(check.body).toMatchObject({
      success: false,
      status: 'error',
      code: 1060,
      error: 'corrupt: the file could not be decoded',
    });
    // the failure is known now: a second PUT reports it
    const again = await request(`${url}/${md5}/${type}`, { method: 'PUT', headers: h.auth });
    expect(again.status).toBe(500);
    expect(again.body.code).toBe(1060);
  },
);
