import { thumbnailJobId } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { UnrecoverableError } from 'bullmq';
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

it("a job that fails between the API's reads of its state and its data is never reported as missing (1066)", async () => {
  const md5 = md5For('fails-mid-read');
  const jobId = thumbnailJobId(md5, 'gif');
  expect((await request(`${h.url}/${md5}/gif`, { method: 'PUT', headers: h.auth })).status).toBe(202);
  await waitFor(async () => ((await h.queue.getJobState(jobId)) === 'active' ? true : undefined));

  // This instance lets the worker fail the job right after its first read of the job (the state
  // and the data, read together in one script; read apart, a failure in between looked like 1066).
  let armed = true;
  const failAfterFirstRead = async <T>(value: T): Promise<T> => {
    if (!armed) return value;
    armed = false;
    release();
    await waitFor(async () => ((await h.queue.getJobState(jobId)) === 'failed' ? true : undefined));
    return value;
  };
  const url = await h.startAnotherInstance(undefined, (redis) => {
    const evaluate = redis.eval.bind(redis) as (...args: unknown[]) => Promise<unknown>;
    (redis as unknown as { eval: (...args: unknown[]) => Promise<unknown> }).eval = async (...args) =>
      failAfterFirstRead(await evaluate(...args));
  });

  const during = await request(`${url}/check/${md5}/gif`, { headers: h.auth });
  expect(during.body.code, JSON.stringify(during.body)).not.toBe(1066);
  expect([200, 500]).toContain(during.status);
  const after = await request(`${url}/check/${md5}/gif`, { headers: h.auth });
  expect(after.status).toBe(500);
  expect(after.body).toMatchObject({ success: false, status: 'error', code: 1060 });
});
