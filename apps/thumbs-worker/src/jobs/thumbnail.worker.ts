import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  THUMBNAIL_QUEUE,
  thumbnailQueuePrefix,
  thumbnailWorkerName,
  type ThumbnailJobPayload,
  type ThumbnailJobResult,
} from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit/logger';
import { Worker } from 'bullmq';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { telemetryHooks } from '@pawlink/service-kit/telemetry-hooks';
// libvips must be loaded by the main thread before worker threads use it (sharp's guidance on
// glibc Linux), or the process can crash when a thread exits.
import 'sharp';
import type { ThumbsWorkerConfig } from '../config.js';
import type { ThumbsWorkerMetrics } from '../metrics/worker.metrics.js';
import { jobTypeLabel, thumbnailFailureOutcomeOf } from '../domain/thumbnail-outcome.rules.js';
import type { ProcessorWorkerData } from './generate-thumbnail.job.js';
import { logQueueErrors } from './thumbnail-queue-errors.worker.js';

/**
 * The compiled processor, `dist/thumbnail-processor.js` (the wiring of a processor thread). Tests
 * import this module from `src` (TypeScript), where no `.js` file exists; the processor always
 * runs from `dist` because worker threads load plain JavaScript.
 */
export function processorFile(): string {
  const built = fileURLToPath(new URL('../thumbnail-processor.js', import.meta.url));
  if (existsSync(built)) return built;
  return fileURLToPath(new URL('../../dist/thumbnail-processor.js', import.meta.url));
}

export type ThumbnailWorker = Worker<ThumbnailJobPayload, ThumbnailJobResult>;

/**
 * A BullMQ worker on the thumbnail queue. Each concurrent job runs on its own worker thread,
 * so CPU-heavy decoding never delays lock renewal on the main thread.
 */
export function createThumbnailWorker(
  config: ThumbsWorkerConfig,
  connection: RedisClient,
  logger: Logger,
  options: { name?: string; metrics?: ThumbsWorkerMetrics } = {},
): ThumbnailWorker {
  const { metrics } = options;
  const { worker: settings } = config;
  // No BullMQ telemetry here: its `process` span would be on this thread while the job runs on a
  // processor thread. That thread starts the job's span itself, from the context in the job's opts.
  const workerData: ProcessorWorkerData = { config, tracing: telemetryHooks() !== undefined };
  const worker: ThumbnailWorker = new Worker(THUMBNAIL_QUEUE, processorFile(), {
    connection,
    // recorded on each job as processedBy, so operators can tell which replica ran it; the API
    // reads the concurrency from it
    name: options.name ?? thumbnailWorkerName(os.hostname(), process.pid, settings.concurrency),
    prefix: thumbnailQueuePrefix(config.redis.prefix),
    concurrency: settings.concurrency,
    useWorkerThreads: true,
    workerThreadsOptions: { workerData },
    lockDuration: settings.lockDurationMs,
    stalledInterval: settings.stalledIntervalMs,
    maxStalledCount: settings.maxStalledCount,
  });
  /** Seconds the attempt that just ended ran (`processedOn` is its start). */
  const ranSeconds = (job: { processedOn?: number; finishedOn?: number }): number =>
    job.processedOn === undefined ? 0 : ((job.finishedOn ?? Date.now()) - job.processedOn) / 1000;
  worker.on('active', (job) => {
    logger.info('thumbnail job started', { jobId: job.id, attempt: job.attemptsMade + 1 });
    // The wait before the first start only: a retry's or a stalled job's would count its earlier attempts.
    if (job.attemptsStarted <= 1)
      metrics?.jobStarted(jobTypeLabel(job.data.type), ((job.processedOn ?? Date.now()) - job.timestamp) / 1000);
  });
  worker.on('completed', (job) => {
    logger.info('thumbnail job completed', { jobId: job.id, durationMs: job.returnvalue?.durationMs });
    metrics?.jobEnded(jobTypeLabel(job.data.type), 'done', ranSeconds(job));
  });
  worker.on('failed', (job, error) => {
    logger.warn('thumbnail job failed', { jobId: job?.id, attemptsMade: job?.attemptsMade, reason: error.message });
    if (job) metrics?.jobEnded(jobTypeLabel(job.data.type), thumbnailFailureOutcomeOf(error.message), ranSeconds(job));
  });
  worker.on('stalled', (jobId) => {
    logger.warn('thumbnail job stalled; it goes back to the queue', { jobId });
    metrics?.jobStalled(THUMBNAIL_QUEUE);
  });
  logQueueErrors(worker, logger, 'thumbnail worker');
  return worker;
}
