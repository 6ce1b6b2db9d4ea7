import { thumbnailJobId } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

const TTL_SECONDS = 600;

let h: ThumbsHarness;
const md5 = {
  corrupt: md5For('corrupt'),
  timeout: md5For('timeout'),
  expired: md5For('expired'),
  expiredRace: md5For('expired-race'),
  completedNoFile: md5For('completed-no-file'),
  multiline: md5For('multiline'),
};
const REASONS: Record<string, string> = {
  [md5.corrupt]: 'corrupt: the file could not be decoded',
  [md5.timeout]: 'timeout: the job took longer than 120 s',
  [md5.expired]: 'unsupported: application/zip is not an image or video',
  [md5.expiredRace]: 'corrupt: truncated file',
  [md5.multiline]: 'corrupt: bad header\n    at decode (/srv/app/dist/decode.js:1:1)',
};

const put = (id: string, type: string) => request(`${h.url}/${id}/${type}`, { method: 'PUT', headers: h.auth });
const check = (id: string, type: string) => request(`${h.url}/check/${id}/${type}`, { headers: h.auth });

beforeAll(async () => {
  h = await startThumbs({ THUMBS_FAILED_TTL_SECONDS: String(TTL_SECONDS) });
  // A stand-in worker (not the real one) that fails or finishes each job as its md5 says.
  const worker = h.startWorker((job) => {
    const reason = REASONS[job.data.md5];
    return reason ? Promise.reject(new UnrecoverableError(reason)) : Promise.resolve({ ok: true });
  });
  for (const id of Object.values(md5)) expect((await put(id, 'gif')).status).toBe(202);
  for (const id of Object.values(md5)) {
    await waitFor(async () => ((await h.queue.getJob(thumbnailJobId(id, 'gif')))?.finishedOn ? true : undefined));
  }
  // Stop processing so new attempts stay queued while the tests look at them.
  await worker.close();
});
afterAll(async () => {
  await h?.close();
});

describe('failed and timed-out jobs', () => {
  it('PUT and check answer 500 1060 with the reason while a failed job is kept', async () => {
    for (const res of [await put(md5.corrupt, 'gif'), await check(md5.corrupt, 'gif')]) {
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, status: 'error', code: 1060, error: REASONS[md5.corrupt] });
    }
  });

  it('PUT and check answer 408 1065 for a job that timed out', async () => {
    for (const res of [await put(md5.timeout, 'gif'), await check('gif', md5.timeout)]) {
      expect(res.status).toBe(408);
      expect(res.body).toMatchObject({ success: false, status: 'timeout', code: 1065 });
      expect(res.body.error).toBe(REASONS[md5.timeout]);
    }
  });

  it('shows only the first line of a failure reason', async () => {
    const res = await check(md5.multiline, 'gif');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('corrupt: bad header');
  });

  it('the failed job does not block the other type of the same md5', async () => {
    const res = await put(md5.corrupt, 'png');
    expect(res.status).toBe(202);
  });

  it('after the failure expires, check forgets it and a PUT starts a new attempt', async () => {
    const failed = await h.queue.getJob(thumbnailJobId(md5.expired, 'gif'));
    expect(await failed?.getState()).toBe('failed');
    expect((await check(md5.expired, 'gif')).status).toBe(500);

    h.advanceClock((TTL_SECONDS + 1) * 1000);
    const forgotten = await check(md5.expired, 'gif');
    expect(forgotten.status).toBe(404);
    expect(forgotten.body.code).toBe(1066);

    const retried = await put(md5.expired, 'gif');
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ status: 'processing', md5: md5.expired });
    const job = await h.queue.getJob(thumbnailJobId(md5.expired, 'gif'));
    expect(await job?.getState()).toBe('waiting');
    expect(job?.failedReason ?? '').toBe('');
    expect(job?.data.requestedAt).toBeGreaterThan(failed?.data.requestedAt ?? Infinity);
    expect((await check(md5.expired, 'gif')).status).toBe(200);
  });

  it('concurrent PUTs on an expired failure make one new attempt and all answer 202', async () => {
    // The clock was moved past the TTL by the test above.
    expect(await (await h.queue.getJob(thumbnailJobId(md5.expiredRace, 'gif')))?.getState()).toBe('failed');
    expect((await check(md5.expiredRace, 'gif')).status).toBe(404);
    const answers = await Promise.all(Array.from({ length: 10 }, () => put(md5.expiredRace, 'gif')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
    const jobs = (await h.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])).filter((j) => j.data.md5 === md5.expiredRace);
    expect(jobs).toHaveLength(1);
    expect(await jobs[0]?.getState()).toBe('waiting');
  });

  it('a completed job whose file is missing is made again by a PUT, and check does not report it done', async () => {
    const check1 = await check(md5.completedNoFile, 'gif');
    expect(check1.status).toBe(404);
    expect(check1.body.code).toBe(1066);
    const res = await put(md5.completedNoFile, 'gif');
    expect(res.status).toBe(202);
    expect(await (await h.queue.getJob(thumbnailJobId(md5.completedNoFile, 'gif')))?.getState()).toBe('waiting');
  });
});
