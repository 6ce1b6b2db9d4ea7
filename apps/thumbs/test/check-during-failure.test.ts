import { THUMBNAIL_QUEUE, thumbnailJobId, type ThumbnailJobPayload } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { Queue, UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

let h: ThumbsHarness;
let release: () => void = () => undefined;
beforeAll(async () => {
  h = await startThumbs();
  h.startWorker(async () => {
    await new Promise<void>((resolve) => (release = resolve));
    throw new UnrecoverableError('corrupt: the file could not be decoded');
  });
});
afterAll(async () => {
  release();
  await h?.close();
});

it('a job that fails between the API\'s reads of its state and its data is never reported as missing (1066)', async () => {
  const md5 = md5For('fails-mid-read');
  const jobId = thumbnailJobId(md5, 'gif');
  expect((await request(`${h.url}/${md5}/gif`, { method: 'PUT', headers: h.auth })).status).toBe(202);
  await waitFor(async () => ((await h.queue.getJobState(jobId)) === 'active' ? true : undefined));

  // This instance's queue lets the worker fail the job right after the first of its two reads.
  const url = await h.startAnotherInstance((connection, prefix) => {
    const queue = new Queue<ThumbnailJobPayload>(THUMBNAIL_QUEUE, { connection, prefix });
    const getJob = queue.getJob.bind(queue);
    const getJobState = queue.getJobState.bind(queue);
    let armed = true;
    const failAfterFirstRead = async <T>(value: T): Promise<T> => {
      if (!armed) return value;
      armed = false;
      release();
      await waitFor(async () => ((await getJobState(jobId)) === 'failed' ? true : undefined));
      return value;
    };
    queue.getJob = async (id: string) => failAfterFirstRead(await getJob(id));
    queue.getJobState = async (id: string) => failAfterFirstRead(await getJobState(id));
    return queue;
  });

  const during = await request(`${url}/check/${md5}/gif`, { headers: h.auth });
  expect(during.body.code, JSON.stringify(during.body)).not.toBe(1066);
  expect([200, 500]).toContain(during.status);
  const after = await request(`${url}/check/${md5}/gif`, { headers: h.auth });
  expect(after.status).toBe(500);
  expect(after.body).toMatchObject({ success: false, status: 'error', code: 1060 });
});
