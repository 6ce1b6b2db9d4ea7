import os from 'node:os';
import {
  THUMBNAIL_CALLBACK_JOB,
  THUMBNAIL_CALLBACK_QUEUE,
  thumbnailQueuePrefix,
  type ThumbnailCallbackDelivery,
} from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit/logger';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { ThumbsWorkerConfig } from '../config.js';
import { CALLBACK_BACKOFF } from '../repositories/callback-queue.repository.js';
import { CallbackRefusedError } from '../services/callback.errors.js';
import type { CallbackDeliveryService } from '../services/callback-delivery.service.js';
import { callbackRetryDelayMs } from '../services/callback-retry.rules.js';
import { logQueueErrors } from './thumbnail-queue-errors.worker.js';

export type CallbackDeliveryWorker = Worker<ThumbnailCallbackDelivery, number>;

/**
 * Delivers completion callbacks from their durable queue. A delivery's first attempt records when
 * it ran, and each retry is due at its delay after that (THUMBS_CALLBACK_RETRY_DELAYS_MS); a 2xx
 * completes it for good, a refused address fails it for good. A worker killed mid-delivery loses
 * its lock; the stalled check (WORKER_LOCK_DURATION_MS, WORKER_STALLED_INTERVAL_MS) gives the
 * delivery to another worker.
 */
export function createCallbackDeliveryWorker(
  config: ThumbsWorkerConfig,
  connection: RedisClient,
  deliveries: Pick<CallbackDeliveryService, 'attempt'>,
  logger: Logger,
  options: { name?: string } = {},
): CallbackDeliveryWorker {
  const { worker: settings, callbacks } = config;
  const deliver = async (job: Job<ThumbnailCallbackDelivery, number>): Promise<number> => {
    if (job.name !== THUMBNAIL_CALLBACK_JOB) throw new UnrecoverableError(`no handler for job "${job.name}"`);
    if (job.data.firstAttemptAt === undefined) await job.updateData({ ...job.data, firstAttemptAt: Date.now() });
    try {
      return await deliveries.attempt(job.data);
    } catch (error) {
      if (error instanceof CallbackRefusedError) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
  const worker: CallbackDeliveryWorker = new Worker(THUMBNAIL_CALLBACK_QUEUE, deliver, {
    connection,
    name: options.name ?? `${os.hostname()}:${process.pid}:callbacks`,
    prefix: thumbnailQueuePrefix(config.redis.prefix),
    concurrency: callbacks.concurrency,
    lockDuration: settings.lockDurationMs,
    stalledInterval: settings.stalledIntervalMs,
    maxStalledCount: settings.maxStalledCount,
    settings: {
      backoffStrategy: (attemptsMade, type, _error, job) => {
        if (type !== CALLBACK_BACKOFF) return 0;
        const data = job?.data as ThumbnailCallbackDelivery | undefined;
        return callbackRetryDelayMs(
          attemptsMade,
          data?.firstAttemptAt ?? Date.now(),
          callbacks.retryDelaysMs,
          Date.now(),
        );
      },
    },
  });
  worker.on('completed', (job) =>
    logger.info('callback delivered', { jobId: job.id, status: job.returnvalue, attempt: job.attemptsMade }),
  );
  worker.on('failed', (job, error) =>
    logger.warn('callback delivery failed', { jobId: job?.id, attemptsMade: job?.attemptsMade, reason: error.message }),
  );
  logQueueErrors(worker, logger, 'callback worker');
  return worker;
}
