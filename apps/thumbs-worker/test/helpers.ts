import { thumbnailJobId, thumbnailQueuePrefix, THUMBNAIL_JOB, THUMBNAIL_QUEUE, type ThumbnailJobPayload, type ThumbnailJobResult, type ThumbnailType } from '@pawlink/contracts';
import type { FakeBoard } from '@pawlink/board/testing';
import type { TestContext } from '@pawlink/test-kit';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { loadWorkerConfig, type WorkerConfig } from '../src/index.js';

export const redisUrl = (ctx: TestContext): string => ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Environment for a worker pointed at this test's prefix, media dir and fake board. */
export function workerEnv(ctx: TestContext, board: FakeBoard, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...ctx.env,
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_USER_AGENT: 'PawlinkTest/1.0 (thumbs-worker tests)',
    BOARD_RETRIES: '1',
    WORKER_LOCK_DURATION_MS: '5000',
    WORKER_STALLED_INTERVAL_MS: '2000',
    LOG_LEVEL: 'error',
    ...overrides,
  };
}

export const workerConfig = (ctx: TestContext, board: FakeBoard, overrides: Record<string, string> = {}): WorkerConfig => loadWorkerConfig(workerEnv(ctx, board, overrides));

export function createQueue(ctx: TestContext): { queue: Queue<ThumbnailJobPayload, ThumbnailJobResult>; connection: Redis } {
  const connection = new Redis(redisUrl(ctx), { maxRetriesPerRequest: null });
  const queue = new Queue<ThumbnailJobPayload, ThumbnailJobResult>(THUMBNAIL_QUEUE, { connection, prefix: thumbnailQueuePrefix(ctx.redisPrefix) });
  return { queue, connection };
}

/** Enqueues the way the thumbs API does: deterministic id, a few attempts for recoverable failures. */
export function enqueue(queue: Queue<ThumbnailJobPayload, ThumbnailJobResult>, md5: string, type: ThumbnailType): Promise<Job<ThumbnailJobPayload, ThumbnailJobResult>> {
  return queue.add(THUMBNAIL_JOB, { md5, type, requestedAt: Date.now() }, { jobId: thumbnailJobId(md5, type), attempts: 3, backoff: { type: 'fixed', delay: 200 } });
}

/** Polls until the job completes or fails for good. */
export async function waitForJob(queue: Queue<ThumbnailJobPayload, ThumbnailJobResult>, jobId: string, timeoutMs = 60_000): Promise<Job<ThumbnailJobPayload, ThumbnailJobResult>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // state first: once it is final, the job read after it is final too
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await queue.getJob(jobId);
      if (job) return job;
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
