import { thumbnailQueuePrefix, thumbnailWorkerName } from '@pawlink/contracts';
import { createRedis } from '@pawlink/service-kit';
import { request } from '@pawlink/test-kit';
import type { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobDurationRepository, startDurationRecorder } from '../src/repositories/job-duration.repository.js';
import { md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

let h: ThumbsHarness;
let durations: JobDurationRepository;
let events: QueueEvents | undefined;
beforeAll(async () => {
  h = await startThumbs();
  durations = new JobDurationRepository(h.redis, h.queue, {
    redisPrefix: h.config.redis.prefix,
    samples: 20,
    defaultMs: 5000,
    cacheMs: 0,
  });
});
afterAll(async () => {
  await events?.close();
  await h?.close();
});

const put = (id: string, type = 'gif') => request(`${h.url}/${id}/${type}`, { method: 'PUT', headers: h.auth });

describe('checkAt / time estimates', () => {
  it('come from recent job durations, the jobs ahead and the workers on the queue', async () => {
    for (const ms of [18_000, 20_000, 22_000]) await durations.record(md5For('d'), Date.now(), ms);
    expect(await durations.averageMs()).toBe(20_000);

    // Two idle workers on a paused queue: jobs wait, and two of them can run side by side.
    await h.queue.pause();
    h.startWorker(() => Promise.resolve({}));
    h.startWorker(() => Promise.resolve({}));
    await waitFor(async () => ((await h.queue.getWorkersCount()) >= 2 ? true : undefined));

    // jobs of every type wait in one queue
    const first = await put(md5For('e1'));
    const second = await put(md5For('e2'), 'png');
    const third = await put(md5For('e3'), 'webp');
    expect(first.body.time).toBe(20_000);
    expect(second.body.time).toBe(20_000);
    expect(third.body.time).toBe(40_000);
    expect(third.body.checkAt - third.body.time).toBeLessThanOrEqual(Date.now());
    expect(third.headers.get('retry-after')).toBe('40');
  });

  it('count the jobs each worker runs side by side, as its name announces', async () => {
    const wide = await startThumbs();
    try {
      const wideDurations = new JobDurationRepository(wide.redis, wide.queue, {
        redisPrefix: wide.config.redis.prefix,
        samples: 20,
        defaultMs: 5000,
        cacheMs: 0,
      });
      for (const ms of [20_000, 20_000]) await wideDurations.record(md5For('w'), Date.now(), ms);
      await wide.queue.pause();
      // One process running three jobs at once: three slots, where counting processes saw one.
      wide.startWorker(() => Promise.resolve({}), { name: thumbnailWorkerName('host', 1, 3), concurrency: 3 });
      await waitFor(async () => ((await wide.queue.getWorkersCount()) >= 1 ? true : undefined));
      const times: number[] = [];
      for (const label of ['w1', 'w2', 'w3', 'w4']) {
        const res = await request(`${wide.url}/${md5For(label)}/gif`, { method: 'PUT', headers: wide.auth });
        expect(res.status).toBe(202);
        times.push(res.body.time as number);
      }
      expect(times).toEqual([20_000, 20_000, 20_000, 40_000]);
    } finally {
      await wide.close();
    }
  });

  it('the recorder stores how long finished jobs took, and tells when the wait list changed', async () => {
    let waitListChanges = 0;
    events = startDurationRecorder({
      connection: createRedis(h.config.redis, { forQueue: true }),
      queuePrefix: thumbnailQueuePrefix(h.config.redis.prefix),
      queue: h.queue,
      durations,
      onError: () => undefined,
      onWaitListChange: () => waitListChanges++,
    });
    await events.waitUntilReady();
    const before = await h.redis.llen(durations.key);
    await h.queue.resume();
    await waitFor(async () => ((await h.redis.llen(durations.key)) >= before + 3 ? true : undefined));
    const completed = await h.queue.getCompleted(0, 10);
    const recorded = (await h.redis.lrange(durations.key, 0, 2)).map(Number).sort((a, b) => a - b);
    expect(recorded).toEqual(
      completed.map((job) => (job.finishedOn ?? 0) - (job.processedOn ?? 0)).sort((a, b) => a - b),
    );
    // Each job the workers took left the wait list (an 'active' event).
    expect(waitListChanges).toBeGreaterThanOrEqual(3);
  });
});
