import { setTimeout as sleep } from 'node:timers/promises';
import { THUMBNAIL_QUEUE, thumbnailJobId, thumbnailQueuePrefix, type ThumbnailJobPayload } from '@pawlink/contracts';
import { createRedis, loadBaseConfig, type BaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { UnrecoverableError, Worker } from 'bullmq';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPolicy } from '../../src/domain/thumbnail-state.rules.js';
import {
  openThumbnailQueue,
  ThumbnailQueueRepository,
  type ThumbnailQueue,
} from '../../src/repositories/thumbnail-queue.repository.js';
import { md5For, waitFor } from '../helpers.js';

const POLICY: JobPolicy = { attempts: 2, keepCompletedSeconds: 120, keepFailedSeconds: 600 };

/** One API instance's view of the queue: its own connections, the shared Redis. */
interface Instance {
  repository: ThumbnailQueueRepository;
  queue: ThumbnailQueue;
  close(): Promise<void>;
}

let ctx: TestContext;
let config: BaseConfig;
const opened: Instance[] = [];

/** `redisPrefix` under this test's own gives a case a queue of its own. */
function openInstance(redisPrefix = config.redis.prefix): Instance {
  const redis = createRedis(config.redis);
  const connection = createRedis(config.redis, { forQueue: true });
  const queue = openThumbnailQueue(connection, redisPrefix);
  const instance: Instance = {
    repository: new ThumbnailQueueRepository(queue, redis, { redisPrefix }),
    queue,
    async close() {
      await queue.close();
      connection.disconnect();
      redis.disconnect();
    },
  };
  opened.push(instance);
  return instance;
}

/** Fails every job it takes with `reason`, until closed. */
function failingWorker(
  redisPrefix: string,
  reason: string,
): { worker: Worker<ThumbnailJobPayload>; connection: RedisClient } {
  const connection = createRedis(config.redis, { forQueue: true });
  const worker = new Worker<ThumbnailJobPayload>(
    THUMBNAIL_QUEUE,
    () => Promise.reject(new UnrecoverableError(reason)),
    {
      connection,
      prefix: thumbnailQueuePrefix(redisPrefix),
    },
  );
  worker.on('error', () => undefined);
  return { worker, connection };
}

const payload = (md5: string, requestedAt: number): ThumbnailJobPayload => ({ md5, type: 'gif', requestedAt });

beforeAll(async () => {
  ctx = await createTestContext('thumbs-queue-repo');
  config = loadBaseConfig(ctx.env);
});
afterAll(async () => {
  for (const instance of opened) await instance.close();
  await ctx?.cleanup();
});

describe('ThumbnailQueueRepository', () => {
  it('finds nothing for a job never queued', async () => {
    expect(await openInstance().repository.find(md5For('none'), 'gif')).toBeNull();
  });

  it('enqueues one job per (md5, type) and answers the stored job to every caller, with its queued time', async () => {
    const { repository, queue } = openInstance();
    const md5 = md5For('dedup');
    const first = await repository.enqueue(payload(md5, 1), POLICY);
    // A later add of the same id: BullMQ builds its answer with its own timestamp, which must not leak.
    await sleep(5);
    const second = await repository.enqueue(payload(md5, 2), POLICY);

    const stored = await queue.getJob(thumbnailJobId(md5, 'gif'));
    expect(first.job).toEqual({
      id: thumbnailJobId(md5, 'gif'),
      phase: 'waiting',
      progress: 0,
      queuedAt: stored?.timestamp,
      processedOn: null,
      finishedOn: null,
      failedReason: null,
      delayMs: null,
    });
    expect(second.job).toEqual(first.job);
    expect((await repository.find(md5, 'gif'))?.job).toEqual(first.job);
    expect(stored?.data).toEqual(payload(md5, 1));
    expect(stored?.opts).toMatchObject({
      attempts: 2,
      removeOnComplete: { age: 120 },
      removeOnFail: { age: 600 },
      backoff: { type: 'exponential', delay: 2000 },
    });
    expect((await queue.getJobs(['waiting'])).filter((job) => job.data.md5 === md5)).toHaveLength(1);
  });

  it('counts the waiting jobs in front of a job', async () => {
    const { repository } = openInstance();
    const jobs = [];
    for (const label of ['ahead-1', 'ahead-2', 'ahead-3'])
      jobs.push(await repository.enqueue(payload(md5For(label), Date.now()), POLICY));
    const [firstLoad, lastLoad] = [await repository.load(jobs[0]!), await repository.load(jobs[2]!)];
    expect(lastLoad.jobsAhead - firstLoad.jobsAhead).toBe(2);
    expect(lastLoad.slots).toBe(1);
  });

  describe('a failed job', () => {
    const md5 = { raced: md5For('raced'), cleaned: md5For('cleaned') };
    let prefix: string;
    let failedQueuedAt: number;
    const open = () => openInstance(prefix);

    beforeAll(async () => {
      // A queue of its own: the worker fails every job it finds.
      prefix = `${config.redis.prefix}failed:`;
      const { repository, queue } = open();
      for (const id of Object.values(md5)) await repository.enqueue(payload(id, 1), POLICY);
      const { worker, connection } = failingWorker(prefix, 'corrupt: bad header');
      try {
        for (const id of Object.values(md5))
          await waitFor(async () =>
            (await queue.getJobState(thumbnailJobId(id, 'gif'))) === 'failed' ? true : undefined,
          );
      } finally {
        await worker.close();
        connection.disconnect();
      }
      failedQueuedAt = (await repository.find(md5.raced, 'gif'))?.job.queuedAt ?? 0;
    });

    it('reads as failed, with its reason and when it finished', async () => {
      const failed = (await open().repository.find(md5.raced, 'gif'))?.job;
      expect(failed).toMatchObject({ phase: 'failed', failedReason: 'corrupt: bad header', queuedAt: failedQueuedAt });
      expect(failed?.finishedOn).toBeGreaterThanOrEqual(failedQueuedAt);
    });

    it('is replaced exactly once when several instances replace it at once, and each answers the new attempt', async () => {
      const instances = [open(), open(), open()];
      const stale = (await instances[0]!.repository.find(md5.raced, 'gif'))?.job;
      expect(stale?.phase).toBe('failed');
      await sleep(5);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          instances[i % 3]!.repository.replace(stale!, payload(md5.raced, 100 + i), POLICY),
        ),
      );

      const jobs = (await instances[0]!.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])).filter(
        (job) => job.data.md5 === md5.raced,
      );
      expect(jobs).toHaveLength(1);
      expect(await jobs[0]?.getState()).toBe('waiting');
      expect(jobs[0]?.data.requestedAt).toBeGreaterThanOrEqual(100);
      const replaced = (await instances[0]!.repository.find(md5.raced, 'gif'))?.job;
      expect(replaced).toMatchObject({ phase: 'waiting', failedReason: null, finishedOn: null });
      expect(replaced?.queuedAt).toBeGreaterThan(failedQueuedAt);
      for (const answer of answers) expect(answer.job).toEqual(replaced);

      // A replace that arrives with the old snapshot leaves the new attempt alone.
      expect((await instances[1]!.repository.replace(stale!, payload(md5.raced, 999), POLICY)).job).toEqual(replaced);
      expect((await instances[0]!.queue.getJob(thumbnailJobId(md5.raced, 'gif')))?.data.requestedAt).toBe(
        jobs[0]?.data.requestedAt,
      );
    });

    it('is counted for operators and forgotten by removeFailed', async () => {
      const { repository } = open();
      expect(await repository.countJobs()).toEqual({
        waiting: 1,
        prioritized: 0,
        delayed: 0,
        active: 0,
        completed: 0,
        failed: 1,
      });
      expect(await repository.countWorkers()).toBe(0);
      expect(await repository.removeFailed(3_600_000)).toBe(0);
      expect(await repository.removeFailed(0)).toBe(1);
      expect(await repository.find(md5.cleaned, 'gif')).toBeNull();
      expect((await repository.countJobs()).failed).toBe(0);
    });
  });
});
