import { beforeEach, describe, expect, it } from 'vitest';
import {
  AVERAGE_MS,
  byMd5,
  MD5,
  MEDIA,
  POST_MD5,
  processing,
  thumbnailWorld,
  THUMBS,
} from '../../test/in-memory-thumbnails.js';

let now = 0;
let { files, queue, service } = thumbnailWorld(() => now);
beforeEach(() => {
  now = 1_700_000_000_000;
  ({ files, queue, service } = thumbnailWorld(() => now));
});

describe('check', () => {
  it('is done when the file exists, whatever the job says', async () => {
    queue.put(MD5, 'gif', {
      queuedAt: now - 9000,
      phase: 'failed',
      finishedOn: now - 1000,
      failedReason: 'corrupt: x',
    });
    files.add(MD5, 'gif');
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'done', url: `${MEDIA}/${MD5}.gif` });
  });

  it('is missing without a job, for a completed job without its file, and for a failure past its TTL; it never queues', async () => {
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'missing' });
    queue.put(MD5, 'png', { queuedAt: now - 9000, phase: 'completed', finishedOn: now - 1000 });
    expect(await service.check(MD5, 'png')).toEqual({ status: 'missing' });
    queue.put(POST_MD5, 'gif', {
      queuedAt: now - 700_000,
      phase: 'failed',
      finishedOn: now - 600_001,
      failedReason: 'corrupt: x',
    });
    expect(await service.check(POST_MD5, 'gif')).toEqual({ status: 'missing' });
    queue.put(POST_MD5, 'png', {
      queuedAt: now - 700_000,
      phase: 'failed',
      finishedOn: null,
      failedReason: 'corrupt: x',
    });
    expect(await service.check(POST_MD5, 'png')).toEqual({ status: 'missing' });
    expect(queue.added).toEqual([]);
  });

  it('describes a waiting or running job with the time it was queued', async () => {
    const queuedAt = now - 3000;
    queue.put(MD5, 'gif', { queuedAt });
    expect(processing(await service.check(MD5, 'gif'))).toEqual({
      status: 'processing',
      md5: MD5,
      checkURL: `${THUMBS}/check/${MD5}/gif`,
      checkAt: now + AVERAGE_MS,
      time: AVERAGE_MS,
      startedAt: queuedAt,
      progress: 0,
    });
    queue.put(MD5, 'gif', { queuedAt, phase: 'active', processedOn: now - 1000, progress: 0 });
    expect(processing(await service.check(MD5, 'gif'))).toMatchObject({ startedAt: queuedAt, time: AVERAGE_MS - 1000 });
  });
});

describe('one job writing several types', () => {
  it('a type another job wrote is done for PUT and check, even while its own job waits', async () => {
    expect(processing(await service.request(byMd5(MD5), 'webp')).md5).toBe(MD5);
    // the gif job of the same md5 publishes the png and the webp too
    files.add(MD5, 'png');
    files.add(MD5, 'webp');
    for (const type of ['png', 'webp'] as const) {
      expect(await service.request(byMd5(MD5), type)).toEqual({ status: 'done', url: `${MEDIA}/${MD5}.${type}` });
      expect(await service.check(MD5, type)).toEqual({ status: 'done', url: `${MEDIA}/${MD5}.${type}` });
    }
    expect(queue.added.map((added) => added.payload.type)).toEqual(['webp']);
  });
});
