import { isThumbnailTimeout, THUMBNAIL_TYPES, type ThumbnailType } from '@pawlink/contracts';
import type { JobDurationRepository } from './job-duration.repository.js';
import type { ThumbnailFileRepository } from './thumbnail-file.repository.js';
import type { JobSnapshot, ThumbnailQueueRepository } from './thumbnail-queue.repository.js';
import { estimateWaitMs, MIN_WAIT_MS } from './wait-estimate.js';

export interface ThumbnailUrls {
  /** MEDIA_URL: where nginx serves `<md5>.<type>`. */
  media: string;
  /** THUMBS_URL: this service, for checkURL. */
  thumbs: string;
}

export type ThumbnailState =
  | { status: 'done'; url: string }
  | { status: 'processing'; md5: string; checkURL: string; checkAt: number; time: number; startedAt: number; progress: number }
  | { status: 'failed'; timedOut: boolean; reason: string }
  | { status: 'missing' };

export interface ThumbnailServiceDeps {
  files: ThumbnailFileRepository;
  queue: ThumbnailQueueRepository;
  durations: JobDurationRepository;
  urls: ThumbnailUrls;
  /** How long a failed job is reported before a new attempt may start. */
  failedTtlMs: number;
  clock: () => number;
}

/**
 * The rules of API.md §4: the file on disk is the truth for "done"; otherwise the one job per
 * (md5, type) says whether it is queued, running, failed (until it expires) or unknown.
 */
export class ThumbnailService {
  constructor(private readonly deps: ThumbnailServiceDeps) {}

  urlOf(md5: string, type: ThumbnailType): string {
    return `${this.deps.urls.media}/${md5}.${type}`;
  }

  checkUrlOf(md5: string, type: ThumbnailType): string {
    return `${this.deps.urls.thumbs}/check/${md5}/${type}`;
  }

  async info(md5: string): Promise<Record<ThumbnailType, string | null>> {
    const present = await Promise.all(THUMBNAIL_TYPES.map((type) => this.deps.files.exists(md5, type)));
    const result = {} as Record<ThumbnailType, string | null>;
    THUMBNAIL_TYPES.forEach((type, i) => {
      result[type] = present[i] ? this.urlOf(md5, type) : null;
    });
    return result;
  }

  /** PUT: done when the file exists, else the existing job's state, else a new job. */
  async request(md5: string, type: ThumbnailType, postId?: number): Promise<Exclude<ThumbnailState, { status: 'missing' }>> {
    if (await this.deps.files.exists(md5, type)) return { status: 'done', url: this.urlOf(md5, type) };
    const payload = { md5, type, requestedAt: this.deps.clock(), ...(postId !== undefined ? { postId } : {}) };
    let job = await this.deps.queue.find(md5, type);
    if (job && job.phase === 'completed' && (await this.deps.files.exists(md5, type))) return { status: 'done', url: this.urlOf(md5, type) };
    if (job && !this.isStale(job)) return this.describe(md5, type, job);
    job = job ? await this.deps.queue.replace(job, payload) : await this.deps.queue.enqueue(payload);
    // Queued now (by us or a racing request): API.md answers 202 even when a fast worker has
    // already failed the job; the client's check reports the failure.
    return this.describe(md5, type, job, { queuedNow: true });
  }

  /** GET /check: like PUT but never starts anything; an unknown or expired job is missing. */
  async check(md5: string, type: ThumbnailType): Promise<ThumbnailState> {
    if (await this.deps.files.exists(md5, type)) return { status: 'done', url: this.urlOf(md5, type) };
    const job = await this.deps.queue.find(md5, type);
    if (!job) return { status: 'missing' };
    if (job.phase === 'completed') {
      // The job may have finished between the two reads; a completed job without its file is not a thumbnail.
      return (await this.deps.files.exists(md5, type)) ? { status: 'done', url: this.urlOf(md5, type) } : { status: 'missing' };
    }
    if (this.isStale(job)) return { status: 'missing' };
    return this.describe(md5, type, job);
  }

  /** A completed job without its file, or a failure past its TTL: a PUT may start over. */
  private isStale(job: JobSnapshot): boolean {
    if (job.phase === 'completed') return true;
    if (job.phase !== 'failed') return false;
    return job.finishedOn === null || job.finishedOn + this.deps.failedTtlMs <= this.deps.clock();
  }

  private async describe(md5: string, type: ThumbnailType, job: JobSnapshot, options: { queuedNow?: boolean } = {}): Promise<Exclude<ThumbnailState, { status: 'missing' }>> {
    if (job.phase === 'failed' && options.queuedNow) {
      const now = this.deps.clock();
      return { status: 'processing', md5, checkURL: this.checkUrlOf(md5, type), checkAt: now + MIN_WAIT_MS, time: MIN_WAIT_MS, startedAt: job.queuedAt, progress: job.progress ?? 0 };
    }
    if (job.phase === 'failed') {
      const reason = readableReason(job.failedReason);
      return { status: 'failed', timedOut: isThumbnailTimeout(reason), reason };
    }
    if (job.phase === 'completed') {
      // Only reached when a PUT's new job finished before we read it back.
      return { status: 'done', url: this.urlOf(md5, type) };
    }
    const [averageJobMs, load] = await Promise.all([this.deps.durations.averageMs(), this.deps.queue.load(job)]);
    const now = this.deps.clock();
    const time = estimateWaitMs({
      state: job.phase,
      averageJobMs,
      slots: load.slots,
      jobsAhead: load.jobsAhead,
      elapsedMs: job.processedOn === null ? 0 : now - job.processedOn,
      progress: job.progress ?? 0,
      delayMs: job.delayMs ?? 0,
    });
    return {
      status: 'processing',
      md5,
      checkURL: this.checkUrlOf(md5, type),
      checkAt: now + time,
      time,
      // When it was queued, not when a worker took it: every client polling the job sees one time.
      startedAt: job.queuedAt,
      progress: job.progress ?? 0,
    };
  }
}

const MAX_REASON_LENGTH = 300;

/** The worker's reason is meant for people; keep one short line of it, never a dump. */
function readableReason(failedReason: string | null): string {
  const line = (failedReason ?? '').split('\n', 1)[0]?.trim() ?? '';
  if (line === '') return 'Thumbnail generation failed.';
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line;
}
