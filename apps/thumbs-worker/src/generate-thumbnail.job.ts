import { workerData } from 'node:worker_threads';
import { createBoardClient, type BoardClient } from '@pawlink/board';
import { MD5_PATTERN, THUMBNAIL_JOB, THUMBNAIL_TIMEOUT_MARKER, THUMBNAIL_TYPES, type ThumbnailJobPayload, type ThumbnailJobResult } from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit';
import { UnrecoverableError, type SandboxedJob } from 'bullmq';
import { Redis } from 'ioredis';
import type { WorkerConfig } from './config.js';
import { generateThumbnail } from './generate-thumbnail.js';
import { JobTimeoutError, UnsupportedMediaError } from './media/media.errors.js';
import { createThreadLogger } from './thread-logger.js';

/*
 * The sandboxed processor: BullMQ runs this file on a worker thread, so decoding and GIF
 * encoding never block the main thread that renews job locks. The thread gets the already
 * validated configuration through workerData and keeps its board client between jobs.
 */

export interface ProcessorWorkerData {
  config: WorkerConfig;
}

interface ThreadState {
  config: WorkerConfig;
  board: BoardClient;
  logger: Logger;
}

let state: ThreadState | undefined;

function threadState(): ThreadState {
  if (state) return state;
  const data = workerData as ProcessorWorkerData | undefined;
  if (!data?.config) throw new Error('the thumbnail processor needs its configuration in workerData');
  const { config } = data;
  const logger = createThreadLogger('thumbs-worker', config.base.logLevel);
  const board = createBoardClient({
    ...config.board,
    redis: new Redis(config.base.redis.url, { enableAutoPipelining: true, maxRetriesPerRequest: 2, connectionName: 'thumbs-worker-board' }),
    redisPrefix: config.base.redis.prefix,
    logger,
  });
  state = { config, board, logger };
  return state;
}

function validPayload(data: unknown): data is ThumbnailJobPayload {
  const payload = data as Partial<ThumbnailJobPayload> | null;
  return typeof payload?.md5 === 'string' && MD5_PATTERN.test(payload.md5) && (THUMBNAIL_TYPES as readonly unknown[]).includes(payload.type);
}

const rejectOnAbort = (signal: AbortSignal): Promise<never> => new Promise((_, reject) => {
  if (signal.aborted) reject(signal.reason as Error);
  else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
});

export default async function processThumbnailJob(job: SandboxedJob<ThumbnailJobPayload, ThumbnailJobResult>, _token?: string, cancel?: AbortSignal): Promise<ThumbnailJobResult> {
  if (job.name !== THUMBNAIL_JOB) throw new UnrecoverableError(`no handler for job "${job.name}"`);
  if (!validPayload(job.data)) throw new UnrecoverableError('invalid job payload');
  const { config, board, logger } = threadState();

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new JobTimeoutError(config.jobTimeoutMs)), config.jobTimeoutMs);
  const onCancel = (): void => controller.abort(cancel?.reason);
  cancel?.addEventListener('abort', onCancel, { once: true });
  const work = generateThumbnail(job.data, { config, board, logger }, (percent) => job.updateProgress(percent), controller.signal);
  // When the budget runs out the race settles at once; the abandoned work still ends (its
  // ffmpeg is killed, its temp files removed), and its late rejection must not go unhandled.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, rejectOnAbort(controller.signal)]);
  } catch (error) {
    if (error instanceof JobTimeoutError || controller.signal.reason instanceof JobTimeoutError) {
      logger.warn('thumbnail job timed out', { jobId: job.id, timeoutMs: config.jobTimeoutMs });
      throw new UnrecoverableError(`${THUMBNAIL_TIMEOUT_MARKER} thumbnail generation took longer than ${config.jobTimeoutMs} ms`);
    }
    if (error instanceof UnsupportedMediaError) {
      logger.warn('thumbnail job failed for good', { jobId: job.id, reason: error.message });
      throw new UnrecoverableError(error.message);
    }
    logger.warn('thumbnail job failed; it may be retried', { jobId: job.id, error: (error as Error).message });
    throw error;
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', onCancel);
  }
}
