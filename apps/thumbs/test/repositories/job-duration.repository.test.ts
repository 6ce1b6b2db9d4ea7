import { THUMBNAIL_QUEUE, thumbnailQueuePrefix, type ThumbnailJobPayload } from '@pawlink/contracts';
import { createRedis, loadBaseConfig, type BaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { Worker } from 'bullmq';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobDurationRepository } from '../../src/repositories/job-duration.repository.js';
import { openThumbnailQueue, type ThumbnailQueue } from '../../src/repositories/thumbnail-queue.repository.js';
import { md5For, waitFor } from '../helpers.js';

let ctx: TestContext;
let config: BaseConfig;
let redis: RedisClient;
let queueConnection: RedisClient;
let queue: ThumbnailQueue;

/** A repository over this test's Redis; `prefix` separates the cases' lists. */
const durationsUnder = (prefix: string, samples = 3) =>
  new JobDurationRepository(redis, queue, {
    redisPrefix: `${config.redis.prefix}${prefix}:`,
    samples,
    defaultMs: 5000,
    cacheMs: 0,
  });

beforeAll(async () => {
  ctx = await createTestContext('thumbs-durations');
  config = loadBaseConfig(ctx.env);
  redis = createRedis(config.redis);
  queueConnection = createRedis(config.redis, { forQueue: true });
  queue = openThumbnailQueue(queueConnection, config.redis.prefix);
});
afterAll(async () => {
  await queue?.close();
  queueConnection?.disconnect();
  redis?.disconnect();
  await ctx?.cleanup();
});

describe('JobDurationRepository', () => {
  it('assumes the default until anything has finished', async () => {
    expect(await durationsUnder('empty').averageMs()).toBe(5000);
  });

  it('averages the recent durations, keeping only the last `samples`', async () => {
    const durations = durationsUnder('recent');
    for (const [i, ms] of [100_000, 1000, 2000, 3000].entries())
      expect(await durations.record(`job-${i}`, 1, ms)).toBe(true);
    expect(await redis.lrange(durations.key, 0, -1)).toEqual(['3000', '2000', '1000']);
    expect(await durations.averageMs()).toBe(2000);
  });

  it('records a finished job once, however many instances saw it finish, and refuses nonsense', async () => {
    const durations = durationsUnder('once');
    const other = durationsUnder('once');
    expect(await durations.record('job', 1000, 4000)).toBe(true);
    expect(await other.record('job', 1000, 4000)).toBe(false);
    // The same id finishing again later (a new attempt) is a new duration.
    expect(await other.record('job', 2000, 6000)).toBe(true);
    expect(await durations.record('bad', 1000, -1)).toBe(false);
    expect(await durations.record('bad', 1000, Number.NaN)).toBe(false);
    expect(await redis.lrange(durations.key, 0, -1)).toEqual(['6000', '4000']);
  });

  it('falls back to the durations of the completed jobs the queue keeps when the list is empty', async () => {
    const connection = createRedis(config.redis, { forQueue: true });
    const worker = new Worker<ThumbnailJobPayload>(THUMBNAIL_QUEUE, () => Promise.resolve({}), {
      connection,
      prefix: thumbnailQueuePrefix(config.redis.prefix),
    });
    try {
      for (const label of ['done-1', 'done-2'])
        await queue.add('generate-thumbnail', { md5: md5For(label), type: 'png', requestedAt: Date.now() });
      await waitFor(async () => ((await queue.getCompletedCount()) >= 2 ? true : undefined));
    } finally {
      await worker.close();
      connection.disconnect();
    }
    const completed = await queue.getCompleted(0, 2);
    const took = completed.map((job) => (job.finishedOn ?? 0) - (job.processedOn ?? 0));
    expect(await durationsUnder('fallback').averageMs()).toBe(
      Math.round(took.reduce((a, b) => a + b, 0) / took.length),
    );
  });
});
