import { workerData } from 'node:worker_threads';
import type { ThumbnailJobPayload, ThumbnailJobResult } from '@pawlink/contracts';
import { createLogger } from '@pawlink/service-kit/logger';
import type { SandboxedJob } from 'bullmq';
import { createThumbsWorkerContainer } from './container.js';
import { handleThumbnailJob, type ProcessorWorkerData, type ThumbnailJobDeps } from './jobs/generate-thumbnail.job.js';

/*
 * The sandboxed processor: BullMQ runs this file on a worker thread, so decoding and GIF
 * encoding never block the main thread that renews job locks. The thread gets the already
 * validated configuration through workerData and keeps its container (and so its board client)
 * between jobs; each job is `handleThumbnailJob` (jobs/generate-thumbnail.job.ts).
 */

let threadDeps: ThumbnailJobDeps | undefined;

function depsOfThisThread(): ThumbnailJobDeps {
  if (threadDeps) return threadDeps;
  const data = workerData as ProcessorWorkerData | undefined;
  if (!data?.config) throw new Error('the thumbnail processor needs its configuration in workerData');
  const { config } = data;
  const logger = createLogger('thumbs-worker', config.logLevel);
  const { renderService } = createThumbsWorkerContainer(config, logger);
  threadDeps = { renderService, jobTimeoutMs: config.worker.jobTimeoutMs, logger };
  return threadDeps;
}

/** The processor BullMQ loads (`dist/thumbnail-processor.js`). */
export default async function processThumbnailJob(
  job: SandboxedJob<ThumbnailJobPayload, ThumbnailJobResult>,
  _token?: string,
  cancel?: AbortSignal,
): Promise<ThumbnailJobResult> {
  return await handleThumbnailJob(job, depsOfThisThread(), cancel);
}
