import { workerData } from 'node:worker_threads';
import { THUMBNAIL_QUEUE, type ThumbnailJobPayload, type ThumbnailJobResult } from '@pawlink/contracts';
import { createLogger } from '@pawlink/service-kit/logger';
import { telemetryHooks } from '@pawlink/service-kit/telemetry-hooks';
import type { SandboxedJob } from 'bullmq';
import { createThumbsWorkerContainer } from './container.js';
import { handleThumbnailJob, type ProcessorWorkerData, type ThumbnailJobDeps } from './jobs/generate-thumbnail.job.js';

/*
 * The sandboxed processor: BullMQ runs this file on a worker thread, so decoding and GIF
 * encoding never block the main thread that renews job locks. The thread gets the already
 * validated configuration through workerData and keeps its container (and so its board client)
 * between jobs; each job is `handleThumbnailJob` (jobs/generate-thumbnail.job.ts).
 */

let threadDeps: Promise<ThumbnailJobDeps> | undefined;

async function createDeps(data: ProcessorWorkerData): Promise<ThumbnailJobDeps> {
  const { config } = data;
  // A thread has modules of its own: its tracing starts here, before its container is built,
  // and only when the process's did (`@opentelemetry/*` is never loaded otherwise).
  if (data.tracing) {
    const { startThreadTelemetry } = await import('@pawlink/service-kit/telemetry');
    await startThreadTelemetry('thumbs-worker');
  }
  const logger = createLogger('thumbs-worker', config.logLevel);
  const { renderService } = createThumbsWorkerContainer(config, logger);
  return { renderService, jobTimeoutMs: config.worker.jobTimeoutMs, logger };
}

function depsOfThisThread(): Promise<ThumbnailJobDeps> {
  const data = workerData as ProcessorWorkerData | undefined;
  if (!data?.config) throw new Error('the thumbnail processor needs its configuration in workerData');
  threadDeps ??= createDeps(data);
  return threadDeps;
}

/** The processor BullMQ loads (`dist/thumbnail-processor.js`). */
export default async function processThumbnailJob(
  job: SandboxedJob<ThumbnailJobPayload, ThumbnailJobResult>,
  _token?: string,
  cancel?: AbortSignal,
): Promise<ThumbnailJobResult> {
  const deps = await depsOfThisThread();
  const telemetry = telemetryHooks();
  if (!telemetry) return await handleThumbnailJob(job, deps, cancel);
  // The job's span continues the trace of the request that queued it (the context is in its opts).
  try {
    return await telemetry.inSpan(`process ${THUMBNAIL_QUEUE}`, () => handleThumbnailJob(job, deps, cancel), {
      kind: 'consumer',
      parent: job.opts.telemetry?.metadata,
      attributes: {
        'messaging.system': 'bullmq',
        'messaging.destination.name': THUMBNAIL_QUEUE,
        'messaging.message.id': job.id ?? '',
        'pawlink.thumbnail.type': String(job.data?.type),
        'pawlink.job.attempt': job.attemptsMade + 1,
      },
    });
  } finally {
    // Sent before the job ends: BullMQ may end this thread (a closing worker) without a word.
    await telemetry.flush().catch(() => undefined);
  }
}
