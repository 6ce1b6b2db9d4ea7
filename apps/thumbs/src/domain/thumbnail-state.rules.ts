import { thumbnailFailureReportOf, thumbnailFileName, type ThumbnailType } from '@pawlink/contracts';
import { estimateWaitMs, MIN_WAIT_MS } from './wait-estimate.rules.js';

/* The job as the queue adapter reads it, and the queue in front of it: what these rules judge. */

export type JobPhase = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

/** A job as the API reports it; read once per request. */
export interface JobSnapshot {
  id: string;
  phase: JobPhase;
  /** 0–100 when the worker reported a number. */
  progress: number | null;
  /** Unix ms when the job was queued: the same for every reader of the job, whatever its state. */
  queuedAt: number;
  /** Unix ms when a worker started the current attempt. */
  processedOn: number | null;
  finishedOn: number | null;
  failedReason: string | null;
  /** For a delayed (backing-off) job: its back-off, an upper bound of the time until it is due. */
  delayMs: number | null;
}

/** The queue's lengths, read in the same script as a job. */
export interface QueueLengths {
  active: number;
  /** Waiting jobs (the wait list and prioritized ones), this one included when it waits. */
  waiting: number;
}

/**
 * A job as one read found it, and the queue's lengths in that same read: what `find()` answers
 * and what `load()` estimates from, passed from one to the other by the caller. `queue` is null
 * when the read could not see the queue (a job gone between its add and its read-back).
 */
export interface JobRead {
  job: JobSnapshot;
  queue: QueueLengths | null;
}

/** How busy the queue is in front of one job. */
export interface QueueLoad {
  jobsAhead: number;
  slots: number;
}

/** How a new job is run and how long BullMQ keeps it once it has finished. */
export interface JobPolicy {
  /** Attempts for recoverable failures (board unreachable, stalled worker). */
  attempts: number;
  /** Kept for progress lookups only; the file is the truth for "done". */
  keepCompletedSeconds: number;
  /** Reported as failed this long; BullMQ forgets it afterwards. */
  keepFailedSeconds: number;
}

export interface ThumbnailUrls {
  /** MEDIA_URL: where nginx serves `<md5>.<type>`. */
  media: string;
  /** THUMBS_URL: this service, for checkURL. */
  thumbs: string;
}

/**
 * What PUT and check tell about one (md5, type) (docs/api.md, "Thumbnails"): the file on disk is
 * the truth for "done"; otherwise the one job says whether it is queued, running, failed (until
 * it expires; a failure because the board has no such post is told apart) or unknown.
 */
export type ThumbnailState =
  | { status: 'done'; url: string }
  | {
      status: 'processing';
      md5: string;
      checkURL: string;
      checkAt: number;
      time: number;
      startedAt: number;
      progress: number;
    }
  | { status: 'failed'; timedOut: boolean; reason: string }
  /** The job failed because no post on the board has the md5: the client asked for something that is not there. */
  | { status: 'notOnBoard' }
  | { status: 'missing' };

/** A thumbnail's file and type, and where this instance's answers point. */
export interface ThumbnailRef {
  md5: string;
  type: ThumbnailType;
  urls: ThumbnailUrls;
}

export { failureSentence, FAILURE_SENTENCE_MAX } from '@pawlink/contracts';

export function doneState({ md5, type, urls }: ThumbnailRef): { status: 'done'; url: string } {
  return { status: 'done', url: `${urls.media}/${thumbnailFileName(md5, type)}` };
}

const checkUrlOf = ({ md5, type, urls }: ThumbnailRef): string => `${urls.thumbs}/check/${md5}/${type}`;

/** A completed job without its file, or a failure past its TTL (`keepFailedSeconds`): a PUT may start over. */
export function isStaleJob(job: JobSnapshot, keepFailedSeconds: number, now: number): boolean {
  if (job.phase === 'completed') return true;
  if (job.phase !== 'failed') return false;
  return job.finishedOn === null || job.finishedOn + keepFailedSeconds * 1000 <= now;
}

/**
 * The state of a job that needs no estimate, or undefined for one that waits or runs. A failed
 * job that this request has just queued (`queuedNow`) is still answered processing: docs/api.md
 * answers 202 even when a fast worker has already failed the job, and the client's check reports
 * the failure.
 */
export function settledStateOf(
  job: JobSnapshot,
  ref: ThumbnailRef,
  options: { queuedNow: boolean; now: number },
): Exclude<ThumbnailState, { status: 'missing' }> | undefined {
  if (job.phase === 'failed' && options.queuedNow) {
    return {
      status: 'processing',
      md5: ref.md5,
      checkURL: checkUrlOf(ref),
      checkAt: options.now + MIN_WAIT_MS,
      time: MIN_WAIT_MS,
      startedAt: job.queuedAt,
      progress: job.progress ?? 0,
    };
  }
  if (job.phase === 'failed') {
    const report = thumbnailFailureReportOf(job.failedReason);
    if (report.kind === 'notOnBoard') return { status: 'notOnBoard' };
    return { status: 'failed', timedOut: report.kind === 'timeout', reason: report.reason };
  }
  // Only reached when a PUT's new job finished before it was read back.
  if (job.phase === 'completed') return doneState(ref);
  return undefined;
}

/** A waiting or running job, with the estimate of when to look again from the queue ahead of it and recent durations. */
export function processingStateOf(
  job: JobSnapshot,
  ref: ThumbnailRef,
  seen: { averageJobMs: number; load: QueueLoad; now: number },
): Extract<ThumbnailState, { status: 'processing' }> {
  const time = estimateWaitMs({
    state: job.phase === 'active' || job.phase === 'delayed' ? job.phase : 'waiting',
    averageJobMs: seen.averageJobMs,
    slots: seen.load.slots,
    jobsAhead: seen.load.jobsAhead,
    elapsedMs: job.processedOn === null ? 0 : seen.now - job.processedOn,
    progress: job.progress ?? 0,
    delayMs: job.delayMs ?? 0,
  });
  return {
    status: 'processing',
    md5: ref.md5,
    checkURL: checkUrlOf(ref),
    checkAt: seen.now + time,
    time,
    // When it was queued, not when a worker took it: every client polling the job sees one time.
    startedAt: job.queuedAt,
    progress: job.progress ?? 0,
  };
}
