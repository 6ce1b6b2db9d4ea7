import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { thumbnailJobId } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MEDIA_URL, md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

/*
 * The check's `time` may come from a view of the wait list up to 250 ms old (docs/api.md); its
 * state never does. This instance's view of the wait list is frozen at its first read, as if it
 * never expired and no event came: every change of state must still show on the very next check.
 */

let h: ThumbsHarness;
let url: string;
let waitListReads = 0;
let frozenWaitList: string[] | undefined;
let release: () => void = () => undefined;
beforeAll(async () => {
  h = await startThumbs();
  url = await h.startAnotherInstance(undefined, (redis) => {
    const lrange = redis.lrange.bind(redis) as (...args: unknown[]) => Promise<string[]>;
    (redis as unknown as { lrange: (...args: unknown[]) => Promise<string[]> }).lrange = async (...args) => {
      waitListReads++;
      frozenWaitList ??= await lrange(...args);
      return frozenWaitList;
    };
  });
});
afterAll(async () => {
  release();
  await h?.close();
});

const check = (md5: string) => request(`${url}/check/${md5}/gif`, { headers: h.auth });
const stateOf = (md5: string) => h.queue.getJobState(thumbnailJobId(md5, 'gif'));

it('a job that starts, finishes or fails is answered so on the next check, whatever the view of the wait list', async () => {
  const [fails, succeeds] = [md5For('snapshot-fails'), md5For('snapshot-succeeds')];
  for (const md5 of [fails, succeeds])
    expect((await request(`${h.url}/${md5}/gif`, { method: 'PUT', headers: h.auth })).status).toBe(202);
  for (const md5 of [fails, succeeds]) expect((await check(md5)).body.status).toBe('processing');
  expect(waitListReads).toBeGreaterThan(0);
  expect(frozenWaitList).toEqual([thumbnailJobId(succeeds, 'gif'), thumbnailJobId(fails, 'gif')]);

  const gate = new Promise<void>((resolve) => (release = resolve));
  h.startWorker(async (job) => {
    await job.updateProgress(40);
    await gate;
    if (job.data.md5 === fails) throw new UnrecoverableError('corrupt: the file could not be decoded');
    await mkdir(path.join(h.ctx.mediaDir, 'thumbs'), { recursive: true });
    await writeFile(path.join(h.ctx.mediaDir, 'thumbs', `${job.data.md5}.gif`), 'gif bytes');
    return {};
  });

  await waitFor(async () =>
    (await stateOf(fails)) === 'active' && (await h.queue.getJob(thumbnailJobId(fails, 'gif')))?.progress === 40
      ? true
      : undefined,
  );
  const running = await check(fails);
  expect(running.status).toBe(200);
  expect(running.body).toMatchObject({ status: 'processing', progress: 40 });

  release();
  await waitFor(async () => ((await stateOf(fails)) === 'failed' ? true : undefined));
  const failed = await check(fails);
  expect(failed.status).toBe(500);
  expect(failed.body).toMatchObject({ success: false, status: 'error', code: 1060 });

  await waitFor(async () => ((await stateOf(succeeds)) === 'completed' ? true : undefined));
  const done = await check(succeeds);
  expect(done.status).toBe(201);
  expect(done.body).toEqual({ success: true, status: 'done', url: `${MEDIA_URL}/${succeeds}.gif` });
  // The view of the wait list still holds both jobs: neither answer came from it.
  expect(frozenWaitList).toEqual([thumbnailJobId(succeeds, 'gif'), thumbnailJobId(fails, 'gif')]);
});
