import { THUMBNAIL_FAILURE_REASONS, thumbnailJobId, type ThumbnailJobPayload, type ThumbnailType } from '@pawlink/contracts';
import { isApiError } from '@pawlink/service-kit';
import { beforeEach, describe, expect, it } from 'vitest';
import { PostUnavailableError, type PostRequester } from '../repositories/post.repository.js';
import type { JobPolicy, JobSnapshot, QueueLoad, ThumbnailQueueRepository } from '../repositories/thumbnail-queue.repository.js';
import { ThumbnailService, type ThumbnailState } from './thumbnail.service.js';
import { MIN_WAIT_MS } from './wait-estimate.js';

const MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
const POST_MD5 = '0123456789abcdef0123456789abcdef';
const MEDIA = 'http://media.test/thumbs';
const THUMBS = 'http://thumbs.test';
const AVERAGE_MS = 4000;
const POLICY: JobPolicy = { attempts: 3, keepCompletedSeconds: 3600, keepFailedSeconds: 600 };

/** Rendered files by `<md5>.<type>`, ThumbHashes by md5. */
class InMemoryFiles {
  readonly present = new Set<string>();
  readonly thumbhashes = new Map<string, Buffer>();
  add(md5: string, type: ThumbnailType): void {
    this.present.add(`${md5}.${type}`);
  }
  exists(md5: string, type: ThumbnailType): Promise<boolean> {
    return Promise.resolve(this.present.has(`${md5}.${type}`));
  }
  readThumbhash(md5: string): Promise<Buffer | null> {
    return Promise.resolve(this.thumbhashes.get(md5) ?? null);
  }
}

/** One job per id, as BullMQ keeps them: adding an existing id answers the stored job. */
class InMemoryQueue implements Pick<ThumbnailQueueRepository, 'find' | 'enqueue' | 'replace' | 'load'> {
  readonly jobs = new Map<string, JobSnapshot>();
  readonly added: Array<{ payload: ThumbnailJobPayload; policy: JobPolicy }> = [];
  currentLoad: QueueLoad = { jobsAhead: 0, slots: 1 };
  /** What a worker does to a job between its add and its read-back. */
  afterAdd: (job: JobSnapshot) => void = () => undefined;

  constructor(private readonly clock: () => number) {}

  find(md5: string, type: ThumbnailType): Promise<JobSnapshot | null> {
    return Promise.resolve(this.jobs.get(thumbnailJobId(md5, type)) ?? null);
  }

  enqueue(payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobSnapshot> {
    const id = thumbnailJobId(payload.md5, payload.type);
    const existing = this.jobs.get(id);
    if (existing) return Promise.resolve(existing);
    this.added.push({ payload, policy });
    const job: JobSnapshot = { id, phase: 'waiting', progress: null, queuedAt: this.clock(), processedOn: null, finishedOn: null, failedReason: null, delayMs: null };
    this.jobs.set(id, job);
    this.afterAdd(job);
    return Promise.resolve(job);
  }

  async replace(stale: JobSnapshot, payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobSnapshot> {
    const current = this.jobs.get(stale.id);
    if (current && (current.phase !== stale.phase || current.finishedOn !== stale.finishedOn)) return current;
    this.jobs.delete(stale.id);
    return this.enqueue(payload, policy);
  }

  load(): Promise<QueueLoad> {
    return Promise.resolve(this.currentLoad);
  }

  /** A job in the given state, queued at `queuedAt`. */
  put(md5: string, type: ThumbnailType, job: Partial<JobSnapshot> & { queuedAt: number }): JobSnapshot {
    const snapshot: JobSnapshot = { id: thumbnailJobId(md5, type), phase: 'waiting', progress: null, processedOn: null, finishedOn: null, failedReason: null, delayMs: null, ...job };
    this.jobs.set(snapshot.id, snapshot);
    return snapshot;
  }
}

let now: number;
let files: InMemoryFiles;
let queue: InMemoryQueue;
let posts: Map<number, string | Error>;
let askedFor: PostRequester[];
let service: ThumbnailService;

beforeEach(() => {
  now = 1_700_000_000_000;
  const clock = () => now;
  files = new InMemoryFiles();
  queue = new InMemoryQueue(clock);
  posts = new Map<number, string | Error>([[4242, POST_MD5]]);
  askedFor = [];
  service = new ThumbnailService({
    files,
    queue,
    durations: { averageMs: () => Promise.resolve(AVERAGE_MS) },
    posts: {
      md5OfPost: (postId, requester = {}) => {
        askedFor.push(requester);
        const answer = posts.get(postId);
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? null);
      },
    },
    urls: { media: MEDIA, thumbs: THUMBS },
    jobs: POLICY,
    clock,
  });
});

const byMd5 = (md5: string) => ({ kind: 'md5', md5 }) as const;
const byPost = (postId: number) => ({ kind: 'post', postId }) as const;

/** The processing answer, asserting that it is one. */
function processing(state: ThumbnailState): Extract<ThumbnailState, { status: 'processing' }> {
  if (state.status !== 'processing') throw new Error(`expected processing, got ${JSON.stringify(state)}`);
  return state;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('info', () => {
  it('answers the URL of each file that exists', async () => {
    files.add(MD5, 'gif');
    expect(await service.info(byMd5(MD5))).toEqual({ urls: { gif: `${MEDIA}/${MD5}.gif`, png: null, webp: null }, thumbhash: null });
    files.add(MD5, 'webp');
    expect((await service.info(byMd5(MD5))).urls).toEqual({ gif: `${MEDIA}/${MD5}.gif`, png: null, webp: `${MEDIA}/${MD5}.webp` });
  });

  it('answers the stored ThumbHash in base64, null while there is none', async () => {
    files.add(MD5, 'png');
    expect((await service.info(byMd5(MD5))).thumbhash).toBeNull();
    files.thumbhashes.set(MD5, Buffer.from([0x1b, 0x08, 0x0e, 0xff]));
    expect((await service.info(byMd5(MD5))).thumbhash).toBe('GwgO/w==');
  });

  it('resolves a post id through the board; an unknown one is 1062', async () => {
    files.add(POST_MD5, 'png');
    expect((await service.info(byPost(4242))).urls).toEqual({ gif: null, png: `${MEDIA}/${POST_MD5}.png`, webp: null });
    expect(await refusal(service.info(byPost(7)))).toEqual({ code: 1062, message: 'Invalid post id: the board has no such post.' });
  });

  it('resolves a post id for its requester, so the board budget is shared fairly', async () => {
    await service.info(byPost(4242), { apiKeyId: 7, ip: '203.0.113.1' });
    await service.request(byPost(4242), 'gif', { apiKeyId: 8, ip: '203.0.113.2' });
    await service.info(byMd5(MD5), { apiKeyId: 9 });
    expect(askedFor).toEqual([{ apiKeyId: 7, ip: '203.0.113.1' }, { apiKeyId: 8, ip: '203.0.113.2' }]);
  });

  it('lets a board that cannot answer reach the caller as PostUnavailableError', async () => {
    posts.set(5151, new PostUnavailableError('image board unavailable'));
    await expect(service.info(byPost(5151))).rejects.toBeInstanceOf(PostUnavailableError);
  });
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
    expect(state).toEqual({ status: 'processing', md5: MD5, checkURL: `${THUMBS}/check/${MD5}/gif`, checkAt: now + AVERAGE_MS, time: AVERAGE_MS, startedAt: now, progress: 0 });
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
    expect(processing(await service.request(byMd5(MD5), 'gif'))).toMatchObject({ time: 3 * AVERAGE_MS + 3000, startedAt: now - 1000 });
  });

  it('reports a failed job (1060) or a timed-out one (1065) while it is kept, with one readable line of the reason', async () => {
    queue.put(MD5, 'gif', { queuedAt: now - 5000, phase: 'failed', finishedOn: now - 1000, failedReason: 'corrupt: bad header\n    at decode (/srv/x.js:1:1)' });
    queue.put(MD5, 'png', { queuedAt: now - 5000, phase: 'failed', finishedOn: now - 1000, failedReason: 'timeout: the job took longer than 120 s' });
    queue.put(POST_MD5, 'gif', { queuedAt: now - 5000, phase: 'failed', finishedOn: now - 1000, failedReason: '' });
    expect(await service.request(byMd5(MD5), 'gif')).toEqual({ status: 'failed', timedOut: false, reason: 'corrupt: bad header' });
    expect(await service.request(byMd5(MD5), 'png')).toEqual({ status: 'failed', timedOut: true, reason: 'timeout: the job took longer than 120 s' });
    expect(await service.request(byMd5(POST_MD5), 'gif')).toEqual({ status: 'failed', timedOut: false, reason: 'Thumbnail generation failed.' });
    expect(queue.added).toEqual([]);
  });

  it('tells a job failed because the board has no such post (1068) from other failures while it is kept, then lets a PUT ask again', async () => {
    queue.put(MD5, 'gif', { queuedAt: now - 5000, phase: 'failed', finishedOn: now - 1000, failedReason: THUMBNAIL_FAILURE_REASONS.notOnBoard });
    expect(await service.request(byMd5(MD5), 'gif')).toEqual({ status: 'notOnBoard' });
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'notOnBoard' });
    expect(queue.added).toEqual([]);
    // Another class keeps its 1060 sentence.
    queue.put(MD5, 'png', { queuedAt: now - 5000, phase: 'failed', finishedOn: now - 1000, failedReason: THUMBNAIL_FAILURE_REASONS.download });
    expect(await service.check(MD5, 'png')).toEqual({ status: 'failed', timedOut: false, reason: THUMBNAIL_FAILURE_REASONS.download });
    // Past the TTL the failure is forgotten: a PUT queues a new attempt.
    queue.put(MD5, 'gif', { queuedAt: now - 700_000, phase: 'failed', finishedOn: now - POLICY.keepFailedSeconds * 1000, failedReason: THUMBNAIL_FAILURE_REASONS.notOnBoard });
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'missing' });
    expect(processing(await service.request(byMd5(MD5), 'gif')).startedAt).toBe(now);
    expect(queue.added).toHaveLength(1);
  });

  it('shortens a long reason', async () => {
    queue.put(MD5, 'gif', { queuedAt: now - 5000, phase: 'failed', finishedOn: now - 1000, failedReason: `corrupt: ${'x'.repeat(400)}` });
    const state = await service.request(byMd5(MD5), 'gif');
    expect(state.status === 'failed' && state.reason).toHaveLength(300);
    expect(state.status === 'failed' && state.reason.endsWith('…')).toBe(true);
  });

  it('replaces a failure past its TTL with a new attempt, answered with the new queued time', async () => {
    queue.put(MD5, 'gif', { queuedAt: now - 700_000, phase: 'failed', finishedOn: now - POLICY.keepFailedSeconds * 1000, failedReason: 'corrupt: x' });
    const state = processing(await service.request(byMd5(MD5), 'gif'));
    expect(queue.added).toHaveLength(1);
    expect(state.startedAt).toBe(now);
    expect((await queue.find(MD5, 'gif'))?.phase).toBe('waiting');
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

describe('check', () => {
  it('is done when the file exists, whatever the job says', async () => {
    queue.put(MD5, 'gif', { queuedAt: now - 9000, phase: 'failed', finishedOn: now - 1000, failedReason: 'corrupt: x' });
    files.add(MD5, 'gif');
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'done', url: `${MEDIA}/${MD5}.gif` });
  });

  it('is missing without a job, for a completed job without its file, and for a failure past its TTL; it never queues', async () => {
    expect(await service.check(MD5, 'gif')).toEqual({ status: 'missing' });
    queue.put(MD5, 'png', { queuedAt: now - 9000, phase: 'completed', finishedOn: now - 1000 });
    expect(await service.check(MD5, 'png')).toEqual({ status: 'missing' });
    queue.put(POST_MD5, 'gif', { queuedAt: now - 700_000, phase: 'failed', finishedOn: now - 600_001, failedReason: 'corrupt: x' });
    expect(await service.check(POST_MD5, 'gif')).toEqual({ status: 'missing' });
    queue.put(POST_MD5, 'png', { queuedAt: now - 700_000, phase: 'failed', finishedOn: null, failedReason: 'corrupt: x' });
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
