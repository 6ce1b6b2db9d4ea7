import {
  MD5_PATTERN,
  THUMBNAIL_JOB,
  THUMBNAIL_TIMEOUT_MARKER,
  THUMBNAIL_TYPES,
  type ThumbnailJobPayload,
  type ThumbnailJobResult,
} from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit/logger';
import { UnrecoverableError, type SandboxedJob } from 'bullmq';
import type { ThumbsWorkerConfig } from '../config.js';
import { failureOf, publicReasonOf } from '../domain/thumbnail-failure.rules.js';
import type { ThumbnailRenderService } from '../services/thumbnail-render.service.js';
import { JobTimeoutError, UnsupportedMediaError } from '../domain/thumbnail.errors.js';

/*
 * One thumbnail job, as the sandboxed processor (`thumbnail-processor.ts`, on a worker thread)
 * hands it over with the thread's render service.
 */

export interface ProcessorWorkerData {
  config: ThumbsWorkerConfig;
  /** The process records traces: the thread starts its own tracing too. */
  tracing?: boolean;
}

/** What handling one job needs; the thread's container, or fakes in specs. */
export interface ThumbnailJobDeps {
  renderService: Pick<ThumbnailRenderService, 'render'>;
  jobTimeoutMs: number;
  logger: Pick<Logger, 'warn'>;
}

/** The part of a sandboxed job the handler reads. */
export type ThumbnailJob = Pick<
  SandboxedJob<ThumbnailJobPayload, ThumbnailJobResult>,
  'id' | 'name' | 'data' | 'updateProgress'
>;

function validPayload(data: unknown): data is ThumbnailJobPayload {
  const payload = data as Partial<ThumbnailJobPayload> | null;
  return (
    typeof payload?.md5 === 'string' &&
    MD5_PATTERN.test(payload.md5) &&
    (THUMBNAIL_TYPES as readonly unknown[]).includes(payload.type)
  );
}

const rejectOnAbort = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });

/** What the logs keep of a failure: its detail, and its cause's when it has one. */
const detailsOf = (error: unknown): Record<string, unknown> => {
  const cause = error instanceof Error && error.cause instanceof Error ? { cause: error.cause.message } : {};
  return { detail: error instanceof Error ? error.message : String(error), ...cause };
};

/**
 * Handles one job: refuses unknown job names and invalid payloads for good, renders within the
 * job's time budget (or until `cancel`), and sorts failures the way the API reports them: over
 * the budget → unrecoverable with the timeout marker (408 1065); unsupported media → unrecoverable;
 * anything else is retried by the queue. A failure's reason is the fixed sentence of its class,
 * which is how the API tells the class back: 500 1060 shows it to clients, except for a post the
 * board does not have (404 1068). Its details (URLs, statuses, md5s, ffmpeg's words) are logged.
 */
export async function handleThumbnailJob(
  job: ThumbnailJob,
  deps: ThumbnailJobDeps,
  cancel?: AbortSignal,
): Promise<ThumbnailJobResult> {
  if (job.name !== THUMBNAIL_JOB) throw new UnrecoverableError(`no handler for job "${job.name}"`);
  if (!validPayload(job.data)) throw new UnrecoverableError('invalid job payload');
  const { renderService, jobTimeoutMs, logger } = deps;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new JobTimeoutError(jobTimeoutMs)), jobTimeoutMs);
  const onCancel = (): void => controller.abort(cancel?.reason);
  cancel?.addEventListener('abort', onCancel, { once: true });
  const work = renderService.render(job.data, (percent) => job.updateProgress(percent), controller.signal);
  // When the budget runs out the race settles at once; the abandoned work still ends (its
  // ffmpeg is killed, its temp files removed), and its late rejection must not go unhandled.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, rejectOnAbort(controller.signal)]);
  } catch (error) {
    if (error instanceof JobTimeoutError || controller.signal.reason instanceof JobTimeoutError) {
      logger.warn('thumbnail job timed out', { jobId: job.id, timeoutMs: jobTimeoutMs });
      throw new UnrecoverableError(
        `${THUMBNAIL_TIMEOUT_MARKER} thumbnail generation took longer than ${jobTimeoutMs} ms`,
      );
    }
    // Cancelled by BullMQ (the worker is closing): its own reason, and the queue decides.
    if (cancel?.aborted && error === cancel.reason) throw error;
    const failure = failureOf(error);
    const reason = publicReasonOf(failure);
    if (error instanceof UnsupportedMediaError) {
      logger.warn('thumbnail job failed for good', { jobId: job.id, failure, reason, ...detailsOf(error) });
      throw new UnrecoverableError(reason);
    }
    logger.warn('thumbnail job failed; it may be retried', { jobId: job.id, failure, reason, ...detailsOf(error) });
    throw new Error(reason);
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', onCancel);
  }
}
