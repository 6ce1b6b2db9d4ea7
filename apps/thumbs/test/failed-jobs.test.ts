import { THUMBNAIL_FAILURE_REASONS, THUMBNAIL_TYPES, thumbnailJobId, type ThumbnailType } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

const TTL_SECONDS = 600;

let h: ThumbsHarness;
const md5sFor = (type: ThumbnailType) => ({
  corrupt: md5For(`corrupt-${type}`),
  timeout: md5For(`timeout-${type}`),
  expired: md5For(`expired-${type}`),
  expiredRace: md5For(`expired-race-${type}`),
  completedNoFile: md5For(`completed-no-file-${type}`),
  multiline: md5For(`multiline-${type}`),
  notOnBoard: md5For(`not-on-board-${type}`),
});
/** The md5s of each type's jobs: every case runs for gif, png, webp and mp4. */
const md5 = Object.fromEntries(THUMBNAIL_TYPES.map((type) => [type, md5sFor(type)])) as Record<
  ThumbnailType,
  ReturnType<typeof md5sFor>
>;
const REASONS: Record<string, string> = Object.fromEntries(
  THUMBNAIL_TYPES.flatMap((type) => [
    [md5[type].corrupt, 'corrupt: the file could not be decoded'],
    [md5[type].timeout, 'timeout: the job took longer than 120 s'],
    [md5[type].expired, 'unsupported: application/zip is not an image or video'],
    [md5[type].expiredRace, 'corrupt: truncated file'],
    [md5[type].multiline, 'corrupt: bad header\n    at decode (/srv/app/dist/decode.js:1:1)'],
    // What the real worker fails a job with when no post on the board has the md5.
    [md5[type].notOnBoard, THUMBNAIL_FAILURE_REASONS.notOnBoard],
  ]),
);

const put = (id: string, type: string) => request(`${h.url}/${id}/${type}`, { method: 'PUT', headers: h.auth });
const check = (id: string, type: string) => request(`${h.url}/check/${id}/${type}`, { headers: h.auth });

beforeAll(async () => {
  h = await startThumbs({ THUMBS_FAILED_TTL_SECONDS: String(TTL_SECONDS) });
  // Queued before any worker runs: a job finished while its PUT reads it back would answer 200.
  for (const type of THUMBNAIL_TYPES) {
    for (const id of Object.values(md5[type])) expect((await put(id, type)).status).toBe(202);
  }
  // A stand-in worker (not the real one) that fails or finishes each job as its md5 says.
  const worker = h.startWorker((job) => {
    const reason = REASONS[job.data.md5];
    return reason ? Promise.reject(new UnrecoverableError(reason)) : Promise.resolve({ ok: true });
  });
  for (const type of THUMBNAIL_TYPES) {
    for (const id of Object.values(md5[type])) {
      await waitFor(async () => ((await h.queue.getJob(thumbnailJobId(id, type)))?.finishedOn ? true : undefined));
    }
  }
  // Stop processing so new attempts stay queued while the tests look at them.
  await worker.close();
});
afterAll(async () => {
  await h?.close();
});

describe('failed and timed-out jobs (gif, png, webp and mp4)', () => {
  it('PUT and check answer 500 1060 with the reason while a failed job is kept', async () => {
    for (const type of THUMBNAIL_TYPES) {
      for (const res of [await put(md5[type].corrupt, type), await check(md5[type].corrupt, type)]) {
        expect(res.status, type).toBe(500);
        expect(res.body, type).toEqual({
          success: false,
          status: 'error',
          code: 1060,
          error: REASONS[md5[type].corrupt],
        });
      }
    }
  });

  it('PUT and check answer 408 1065 for a job that timed out', async () => {
    for (const type of THUMBNAIL_TYPES) {
      for (const res of [await put(md5[type].timeout, type), await check(type, md5[type].timeout)]) {
        expect(res.status, type).toBe(408);
        expect(res.body, type).toMatchObject({ success: false, status: 'timeout', code: 1065 });
        expect(res.body.error, type).toBe(REASONS[md5[type].timeout]);
      }
    }
  });

  it('PUT and check (either order) answer 404 1068 for a post the board does not have while the failed job is kept', async () => {
    for (const type of THUMBNAIL_TYPES) {
      const id = md5[type].notOnBoard;
      for (const res of [
        await put(id, type),
        await put(id.toUpperCase(), type),
        await check(id, type),
        await check(type, id),
      ]) {
        expect(res.status, type).toBe(404);
        expect(res.body, type).toEqual({ success: false, code: 1068, error: 'The post was not found on the board.' });
        expect(res.headers.get('cache-control'), type).toBe('no-store');
      }
      // Nothing new was queued: the failed job is still the one answering.
      expect(await (await h.queue.getJob(thumbnailJobId(id, type)))?.getState(), type).toBe('failed');
    }
  });

  it('shows only the first line of a failure reason', async () => {
    for (const type of THUMBNAIL_TYPES) {
      const res = await check(md5[type].multiline, type);
      expect(res.status, type).toBe(500);
      expect(res.body.error, type).toBe('corrupt: bad header');
    }
  });

  it('the failed job does not block the other types of the same md5', async () => {
    for (const type of THUMBNAIL_TYPES) {
      for (const other of THUMBNAIL_TYPES.filter((t) => t !== type)) {
        const res = await put(md5[type].corrupt, other);
        expect(res.status, `${type} failed, ${other} asked`).toBe(202);
      }
    }
  });

  it('after the failure expires, check forgets it and a PUT starts a new attempt', async () => {
    const failed = new Map<ThumbnailType, Awaited<ReturnType<typeof h.queue.getJob>>>();
    for (const type of THUMBNAIL_TYPES) {
      const job = await h.queue.getJob(thumbnailJobId(md5[type].expired, type));
      expect(await job?.getState(), type).toBe('failed');
      expect((await check(md5[type].expired, type)).status, type).toBe(500);
      failed.set(type, job);
    }

    h.advanceClock((TTL_SECONDS + 1) * 1000);
    for (const type of THUMBNAIL_TYPES) {
      const forgotten = await check(md5[type].expired, type);
      expect(forgotten.status, type).toBe(404);
      expect(forgotten.body.code, type).toBe(1066);

      const retried = await put(md5[type].expired, type);
      expect(retried.status, type).toBe(202);
      expect(retried.body, type).toMatchObject({ status: 'processing', md5: md5[type].expired });
      const job = await h.queue.getJob(thumbnailJobId(md5[type].expired, type));
      expect(await job?.getState(), type).toBe('waiting');
      expect(job?.failedReason ?? '', type).toBe('');
      expect(job?.data.requestedAt, type).toBeGreaterThan(failed.get(type)?.data.requestedAt ?? Infinity);
      expect((await check(md5[type].expired, type)).status, type).toBe(200);

      // The same for a post the board did not have: after the TTL a PUT asks the board again.
      expect((await check(md5[type].notOnBoard, type)).body.code, type).toBe(1066);
      expect((await put(md5[type].notOnBoard, type)).status, type).toBe(202);
      expect(await (await h.queue.getJob(thumbnailJobId(md5[type].notOnBoard, type)))?.getState(), type).toBe(
        'waiting',
      );
    }
  });

  it('concurrent PUTs on an expired failure make one new attempt and all answer 202', async () => {
    // The clock was moved past the TTL by the test above.
    for (const type of THUMBNAIL_TYPES) {
      const id = md5[type].expiredRace;
      expect(await (await h.queue.getJob(thumbnailJobId(id, type)))?.getState(), type).toBe('failed');
      expect((await check(id, type)).status, type).toBe(404);
      const answers = await Promise.all(Array.from({ length: 10 }, () => put(id, type)));
      expect(
        answers.map((a) => a.status),
        type,
      ).toEqual(Array(10).fill(202));
      const jobs = (await h.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])).filter(
        (j) => j.data.md5 === id,
      );
      expect(jobs, type).toHaveLength(1);
      expect(await jobs[0]?.getState(), type).toBe('waiting');
    }
  });

  it('a completed job whose file is missing is made again by a PUT, and check does not report it done', async () => {
    for (const type of THUMBNAIL_TYPES) {
      const id = md5[type].completedNoFile;
      const check1 = await check(id, type);
      expect(check1.status, type).toBe(404);
      expect(check1.body.code, type).toBe(1066);
      const res = await put(id, type);
      expect(res.status, type).toBe(202);
      expect(await (await h.queue.getJob(thumbnailJobId(id, type)))?.getState(), type).toBe('waiting');
    }
  });
});
