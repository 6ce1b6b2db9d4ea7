import { THUMBNAIL_FAILURE_REASONS } from '@pawlink/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AVERAGE_MS,
  byMd5,
  byPost,
  MD5,
  MEDIA,
  POLICY,
  POST_MD5,
  processing,
  thumbnailWorld,
  THUMBS,
} from '../../test/in-memory-thumbnails.js';
import { MIN_WAIT_MS } from '../domain/wait-estimate.rules.js';

let now = 0;
let { files, queue, service, callbacks } = thumbnailWorld(() => now);
beforeEach(() => {
  now = 1_700_000_000_000;
  ({ files, queue, service, callbacks } = thumbnailWorld(() => now));
});

describe('request (PUT)', () => {
  it('answers done when the file exists, and queues nothing', async () => {
    files.add(MD5, 'png');
    expect(await service.request(byMd5(MD5), 'png')).toEqual({ status: 'done', url: `${MEDIA}/${MD5}.png` });
    expect(queue.added).toEqual([]);
  });

  it('queues one job with the policy and answers processing, startedAt being when it was queued', async () => {
    const state = processing(await service.request(byMd5(MD5), 'gif'));
    expect(queue.added).toEqual([{ payload: { md5: MD5, type: 'gif', requestedAt: now }, policy: POLICY }]);
    expect(state).toEqual({
      status: 'processing',
      md5: MD5,
      checkURL: `${THUMBS}/check/${MD5}/gif`,
      checkAt: now + AVERAGE_MS,
      time: AVERAGE_MS,
      startedAt: now,
      progress: 0,
    });
  });

  it('passes a resolved post id to the worker', async () => {
    processing(await service.request(byPost(4242), 'gif'));
    expect(queue.added[0]?.payload).toEqual({ md5: POST_MD5, type: 'gif', requestedAt: now, postId: 4242 });
  });

  it('answers the existing job to every later request: same startedAt, no second job', async () => {
    const first = processing(await service.request(byMd5(MD5), 'gif'));
    now += 7000;
    const again = processing(await service.request(byMd5(MD5), 'gif'));
    expect(queue.added).toHaveLength(1);
    expect(again.startedAt).toBe(first.startedAt);
    expect(again.checkAt).toBe(now + AVERAGE_MS);
  });

  it('keeps startedAt at the queued time once a worker runs the job, and estimates from its progress', async () => {
    const queuedAt = now - 10_000;
    queue.put(MD5, 'gif', { queuedAt, phase: 'active', processedOn: now - 2000, progress: 50 });
    const state = processing(await service.request(byMd5(MD5), 'gif'));
    expect(state).toMatchObject({ startedAt: queuedAt, progress: 50, time: 2000, checkAt: now + 2000 });
  });

  it('adds the back-off of a delayed job and the jobs ahead to the estimate', async () => {
    queue.currentLoad = { jobsAhead: 2, slots: 1 };
    queue.put(MD5, 'gif', { queuedAt: now - 1000, phase: 'delayed', delayMs: 3000 });
    expect(processing(await service.request(byMd5(MD5), 'gif'))).toMatchObject({
      time: 3 * AVERAGE_MS + 3000,
      startedAt: now - 1000,
    });
  });

  it('reports a failed job (1060) or a timed-out one (1065) while it is kept, with one readable line of the reason', async () => {
    queue.put(MD5, 'gif', {
      queuedAt: now - 5000,
      phase: 'failed',
      finishedOn: now - 1000,
      failedReason: 'corrupt: bad header\n    at decode (/srv/x.js:1:1)',
    });
    queue.put(MD5, 'png', {
      queuedAt: now - 5000,
      phase: 'failed',
      finishedOn: now - 1000,
      failedReason: 'timeout: the job took longer than 120 s',
    });
    queue.put(POST_MD5, 'gif', { queuedAt: now - 5000, phase: 'failed', finishedOn: now - 1000, failedReason: '' });
    expect(await service.request(byMd5(MD5), 'gif')).toEqual({
      status: 'failed',
      timedOut: false,
      reason: 'corrupt: bad header',
    });
    expect(await service.request(byMd5(MD5), 'png')).toEqual({
      status: 'failed',
      timedOut: true,
      reason: 'timeout: the job took longer than 120 s',
    });
    expect(await service.request(byMd5(POST_MD5), 'gif')).toEqual({
      status: 'failed',
      timedOut: false,
      reason: 'Thumbnail generation failed.',
    });
    expect(queue.added).toEqual([]);
  });

  it('tells a job failed because the board has no such post (1068) from other failures while it is kept, then lets a PUT ask again', async () => {
    queue.put(MD5, 'gif', {
      queuedAt: now - 5000,
      phase: 'failed',
      finishedOn: now - 1000,
      failedReason: THUMBNAIL_FAILURE_REASONS.notOnBoard,
    });
    expect(await service.request(byMd5(MD5), 'gif')).toEqual({ status: 'notOnBoard' });
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'notOnBoard' });
    expect(queue.added).toEqual([]);
    // Another class keeps its 1060 sentence.
    queue.put(MD5, 'png', {
      queuedAt: now - 5000,
      phase: 'failed',
      finishedOn: now - 1000,
      failedReason: THUMBNAIL_FAILURE_REASONS.download,
    });
    expect(await service.check(MD5, 'png')).toEqual({
      status: 'failed',
      timedOut: false,
      reason: THUMBNAIL_FAILURE_REASONS.download,
    });
    // Past the TTL the failure is forgotten: a PUT queues a new attempt.
    queue.put(MD5, 'gif', {
      queuedAt: now - 700_000,
      phase: 'failed',
      finishedOn: now - POLICY.keepFailedSeconds * 1000,
      failedReason: THUMBNAIL_FAILURE_REASONS.notOnBoard,
    });
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'missing' });
    expect(processing(await service.request(byMd5(MD5), 'gif')).startedAt).toBe(now);
    expect(queue.added).toHaveLength(1);
  });

  it('shortens a long reason', async () => {
    queue.put(MD5, 'gif', {
      queuedAt: now - 5000,
      phase: 'failed',
      finishedOn: now - 1000,
      failedReason: `corrupt: ${'x'.repeat(400)}`,
    });
    const state = await service.request(byMd5(MD5), 'gif');
    expect(state.status === 'failed' && state.reason).toHaveLength(300);
    expect(state.status === 'failed' && state.reason.endsWith('…')).toBe(true);
  });

  it('replaces a failure past its TTL with a new attempt, answered with the new queued time', async () => {
    queue.put(MD5, 'gif', {
      queuedAt: now - 700_000,
      phase: 'failed',
      finishedOn: now - POLICY.keepFailedSeconds * 1000,
      failedReason: 'corrupt: x',
    });
    const state = processing(await service.request(byMd5(MD5), 'gif'));
    expect(queue.added).toHaveLength(1);
    expect(state.startedAt).toBe(now);
    expect((await queue.find(MD5, 'gif'))?.job.phase).toBe('waiting');
  });

  it('makes again a completed job whose file is gone; a completed job with its file is done', async () => {
    queue.put(MD5, 'gif', { queuedAt: now - 9000, phase: 'completed', finishedOn: now - 1000 });
    expect(processing(await service.request(byMd5(MD5), 'gif')).startedAt).toBe(now);
    queue.put(MD5, 'png', { queuedAt: now - 9000, phase: 'completed', finishedOn: now - 1000 });
    files.add(MD5, 'png');
    expect(await service.request(byMd5(MD5), 'png')).toEqual({ status: 'done', url: `${MEDIA}/${MD5}.png` });
  });

  it('answers processing for a job it queued that a worker failed before the read-back; the check reports the failure', async () => {
    queue.afterAdd = (job) => Object.assign(job, { phase: 'failed', finishedOn: now, failedReason: 'corrupt: x' });
    const state = processing(await service.request(byMd5(MD5), 'gif'));
    expect(state).toMatchObject({ startedAt: now, time: MIN_WAIT_MS, checkAt: now + MIN_WAIT_MS });
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'failed', timedOut: false, reason: 'corrupt: x' });
  });
});

describe('request (PUT) with a callback URL', () => {
  const hook = (href: string) => ({ url: new URL(href), apiKeyId: 7 });

  it('registers each callback URL of a processing job once, whoever asks', async () => {
    processing(await service.request(byMd5(MD5), 'gif', {}, hook('https://a.example/hook')));
    processing(await service.request(byMd5(MD5), 'gif', {}, hook('https://b.example/hook')));
    processing(await service.request(byMd5(MD5), 'gif', {}, hook('https://a.example/hook')));
    expect(callbacks.urlsOf(MD5, 'gif')).toEqual(['https://a.example/hook', 'https://b.example/hook']);
    expect(queue.added).toHaveLength(1);
  });

  it('registers nothing when the answer is done or a kept failure', async () => {
    files.add(MD5, 'png');
    expect(await service.request(byMd5(MD5), 'png', {}, hook('https://a.example/hook'))).toMatchObject({
      status: 'done',
    });
    queue.put(MD5, 'gif', {
      queuedAt: now - 5000,
      phase: 'failed',
      finishedOn: now - 1000,
      failedReason: 'timeout: too long',
    });
    expect(await service.request(byMd5(MD5), 'gif', {}, hook('https://a.example/hook'))).toMatchObject({
      status: 'failed',
      timedOut: true,
    });
    expect(callbacks.urlsOf(MD5, 'png')).toEqual([]);
    expect(callbacks.urlsOf(MD5, 'gif')).toEqual([]);
  });

  it('refuses a callback URL whose address may not be called with 1085, before anything is queued or asked of the board', async () => {
    callbacks.refusedHosts.add('internal.example');
    await expect(service.request(byPost(4242), 'gif', {}, hook('http://internal.example/hook'))).rejects.toMatchObject({
      code: 1085,
    });
    expect(queue.added).toEqual([]);
    expect(callbacks.urlsOf(POST_MD5, 'gif')).toEqual([]);
  });
});
