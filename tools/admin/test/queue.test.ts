import { THUMBNAIL_JOB, THUMBNAIL_QUEUE, thumbnailQueuePrefix } from '@pawlink/contracts';
import { createRedis, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './run-admin.js';

let ctx: TestContext;
let connection: RedisClient;
let queue: Queue;

beforeAll(async () => {
  ctx = await createTestContext('admin-queue');
  const config = loadBaseConfig(ctx.env);
  connection = createRedis(config.redis, { forQueue: true });
  queue = new Queue(THUMBNAIL_QUEUE, { connection, prefix: thumbnailQueuePrefix(config.redis.prefix) });
});

afterAll(async () => {
  await queue.close();
  await connection.quit();
  await ctx.cleanup();
});

describe('bin/admin queue', () => {
  it('status counts jobs per state and connected workers', async () => {
    await queue.add(
      THUMBNAIL_JOB,
      { md5: 'a'.repeat(32), type: 'gif', requestedAt: Date.now() },
      { jobId: `${'a'.repeat(32)}.gif` },
    );
    await queue.add(
      THUMBNAIL_JOB,
      { md5: 'b'.repeat(32), type: 'png', requestedAt: Date.now() },
      { jobId: `${'b'.repeat(32)}.png` },
    );
    const result = await runAdmin(ctx.env, ['queue', 'status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('waiting: 2\n');
    expect(result.stdout).toContain('failed: 0\n');
    expect(result.stdout).toContain('workers: 0\n');
  });

  it('clean-failed forgets failed jobs so they can be retried', async () => {
    const config = loadBaseConfig(ctx.env);
    const workerConnection = createRedis(config.redis, { forQueue: true });
    const worker = new Worker(THUMBNAIL_QUEUE, () => Promise.reject(new UnrecoverableError('corrupt input')), {
      connection: workerConnection,
      prefix: thumbnailQueuePrefix(config.redis.prefix),
    });
    try {
      await expect.poll(() => queue.getFailedCount(), { timeout: 10_000 }).toBe(2);
    } finally {
      await worker.close();
      await workerConnection.quit();
    }
    expect((await runAdmin(ctx.env, ['queue', 'status'])).stdout).toContain('failed: 2\n');
    const cleaned = await runAdmin(ctx.env, ['queue', 'clean-failed']);
    expect(cleaned.code).toBe(0);
    expect(cleaned.stdout).toBe('Removed 2 failed job(s).\n');
    expect(await queue.getFailedCount()).toBe(0);
    expect(await queue.getJob(`${'a'.repeat(32)}.gif`)).toBeUndefined();
  });

  it.each([
    [['queue', 'clean-failed', '--older-than', '-5']],
    [['queue', 'clean-failed', '--older-than', 'soon']],
    [['queue', 'drain']],
    [['queue', 'status', 'extra']],
  ])('rejects %j with exit 2', async (args) => {
    expect((await runAdmin(ctx.env, args)).code).toBe(2);
  });
});
