import os from 'node:os';
import {
  THUMBNAIL_CALLBACK_JOB,
  THUMBNAIL_CALLBACK_QUEUE,
  thumbnailQueuePrefix,
  type ThumbnailCallbackDelivery,
} from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit/logger';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { telemetryHooks } from '@pawlink/service-kit/telemetry-hooks';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { ThumbsWorkerConfig } from '../config.js';
import { CALLBACK_BACKOFF, webhookIdOfDeliveryId } from '../repositories/callback-queue.repository.js';
import type { ThumbsWorkerMetrics } from '../metrics/worker.metrics.js';
import { FinalCallbackError } from '../domain/callback.errors.js';
import type { CallbackAttempt, CallbackDeliveryService } from '../services/callback-delivery.service.js';
import { callbackAttemptOutcomeOf, callbackDeliveryEndOf } from '../domain/callback-outcome.rules.js';
import { callbackRetryDelayMs } from '../domain/callback-retry.rules.js';
import { logQueueErrors } from './thumbnail-queue-errors.worker.js';

export type CallbackDeliveryWorker = Worker<ThumbnailCallbackDelivery, number>;

/** What the processor needs of a delivery that the job may not carry (queued by an older worker). */
function attemptOf(job: Job<ThumbnailCallbackDelivery, number>): CallbackAttempt {
  return {
    ...job.data,
    webhookId:
      job.data.webhookId ?? webhookIdOfDeliveryId(job.id ?? '') ?? `evt_${job.id ?? 'unknown'}`.replace(/\./g, '_'),
    // Queued after its registration: the queue time is a bound on it.
    registeredAt: job.data.registeredAt ?? job.timestamp,
  };
}

/**
 * Delivers completion callbacks from their durable queue. A delivery's first attempt records when
 * it ran, and each retry is due at its delay after that (THUMBS_CALLBACK_RETRY_DELAYS_MS); a 2xx
 * completes it for good; a refused address, a 410 (and a URL that answered 410 after the
 * delivery's registration) fail it for good. A worker killed mid-delivery loses its lock; the
 * stalled check (WORKER_LOCK_DURATION_MS, WORKER_STALLED_INTERVAL_MS) gives the delivery to another
 * worker. Each attempt and each end is counted in `metrics` when given.
 */
export function createCallbackDeliveryWorker(
  config: ThumbsWorkerConfig,
  connection: RedisClient,
  deliveries: Pick<CallbackDeliveryService, 'attempt'>,
  logger: Logger,
  options: { name?: string; metrics?: ThumbsWorkerMetrics } = {},
): CallbackDeliveryWorker {
  const { worker: settings, callbacks } = config;
  const { metrics } = options;
  const deliver = async (job: Job<ThumbnailCallbackDelivery, number>): Promise<number> => {
    if (job.name !== THUMBNAIL_CALLBACK_JOB) throw new UnrecoverableError(`no handler for job "${job.name}"`);
    if (job.data.firstAttemptAt === undefined) await job.updateData({ ...job.data, firstAttemptAt: Date.now() });
    try {
      const status = await deliveries.attempt(attemptOf(job));
      metrics?.callbackAttempted('delivered');
      metrics?.callbackEnded('delivered');
      return status;
    } catch (error) {
      metrics?.callbackAttempted(callbackAttemptOutcomeOf(error));
      const end = callbackDeliveryEndOf(error, (job.opts.attempts ?? 1) - job.attemptsMade - 1);
      if (end) metrics?.callbackEnded(end);
      if (error instanceof FinalCallbackError) throw new UnrecoverableError(error.message);
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
    // With traces on, each attempt is a `process` span under the trace the delivery was queued in,
    // its POST (an HTTP client span) under it: the receiver gets that span's traceparent.
    telemetry: telemetryHooks()?.bullmq,
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
  worker.on('stalled', () => metrics?.jobStalled(THUMBNAIL_CALLBACK_QUEUE));
  logQueueErrors(worker, logger, 'callback worker');
  return worker;
}
