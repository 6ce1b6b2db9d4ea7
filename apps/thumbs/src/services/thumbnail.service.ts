import { isThumbnailTimeout, thumbnailFailureOf, thumbnailFileName, THUMBNAIL_TYPES, type ThumbnailJobPayload, type ThumbnailType } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { JobDurationRepository } from '../repositories/job-duration.repository.js';
import type { PostRepository, PostRequester } from '../repositories/post.repository.js';
import type { ThumbnailFileRepository } from '../repositories/thumbnail-file.repository.js';
import type { JobPolicy, JobSnapshot, ThumbnailQueueRepository } from '../repositories/thumbnail-queue.repository.js';
import type { ThumbnailTarget } from './thumbnail-id.rules.js';
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
  /** The job failed because no post on the board has the md5: the client asked for something that is not there. */
  | { status: 'notOnBoard' }
  | { status: 'missing' };

/** What GET /:id tells: the URL of each published type, and the still's ThumbHash in base64. */
export interface ThumbnailInfo {
  urls: Record<ThumbnailType, string | null>;
  thumbhash: string | null;
}

export interface ThumbnailServiceDeps {
  files: Pick<ThumbnailFileRepository, 'exists' | 'readThumbhash'>;
  queue: Pick<ThumbnailQueueRepository, 'find' | 'enqueue' | 'replace' | 'load'>;
  durations: Pick<JobDurationRepository, 'averageMs'>;
  posts: Pick<PostRepository, 'md5OfPost'>;
  urls: ThumbnailUrls;
  /** New jobs' attempts and retention; a failed job is reported for `keepFailedSeconds`, then a PUT may start over. */
  jobs: JobPolicy;
  clock: () => number;
}

/**
 * The rules of API.md §4: the file on disk is the truth for "done"; otherwise the one job per
 * (md5, type) says whether it is queued, running, failed (until it expires; a failure because the
 * board has no such post is told apart, §6.1) or unknown.
 */
export class ThumbnailService {
  constructor(private readonly deps: ThumbnailServiceDeps) {}

  /**
   * GET /:id: the URL of each thumbnail whose file exists, and the ThumbHash the worker stored with
   * the still. `requester` asks when a post id must be resolved.
   */
  async info(target: ThumbnailTarget, requester: PostRequester = {}): Promise<ThumbnailInfo> {
    const md5 = await this.md5Of(target, requester);
    const [thumbhash, ...present] = await Promise.all([this.deps.files.readThumbhash(md5), ...THUMBNAIL_TYPES.map((type) => this.deps.files.exists(md5, type))]);
    const urls = {} as Record<ThumbnailType, string | null>;
    THUMBNAIL_TYPES.forEach((type, i) => {
      urls[type] = present[i] ? this.urlOf(md5, type) : null;
    });
    return { urls, thumbhash: thumbhash instanceof Buffer ? thumbhash.toString('base64') : null };
  }

  /** PUT: done when the file exists, else the existing job's state, else a new job. */
  async request(target: ThumbnailTarget, type: ThumbnailType, requester: PostRequester = {}): Promise<Exclude<ThumbnailState, { status: 'missing' }>> {
    const md5 = await this.md5Of(target, requester);
    if (await this.deps.files.exists(md5, type)) return { status: 'done', url: this.urlOf(md5, type) };
    const payload: ThumbnailJobPayload = { md5, type, requestedAt: this.deps.clock(), ...(target.kind === 'post' ? { postId: target.postId } : {}) };
    let job = await this.deps.queue.find(md5, type);
    if (job && job.phase === 'completed' && (await this.deps.files.exists(md5, type))) return { status: 'done', url: this.urlOf(md5, type) };
    if (job && !this.isStale(job)) return this.describe(md5, type, job);
    job = job ? await this.deps.queue.replace(job, payload, this.deps.jobs) : await this.deps.queue.enqueue(payload, this.deps.jobs);
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

  private urlOf(md5: string, type: ThumbnailType): string {
    return `${this.deps.urls.media}/${thumbnailFileName(md5, type)}`;
  }

  private checkUrlOf(md5: string, type: ThumbnailType): string {
    return `${this.deps.urls.thumbs}/check/${md5}/${type}`;
  }

  /**
   * The MD5 a validated `:id` names: a post id goes through the board (unknown → 1062). When the
   * board cannot answer, the repository's PostUnavailableError goes to the caller: the request
   * itself was fine and will work later; so does its PostShareUsedError for a requester over its
   * share of the board budget.
   */
  private async md5Of(target: ThumbnailTarget, requester: PostRequester): Promise<string> {
    if (target.kind === 'md5') return target.md5;
    const md5 = await this.deps.posts.md5OfPost(target.postId, requester);
    if (md5 === null) throw new ApiError('INVALID_POST_ID', { message: 'Invalid post id: the board has no such post.' });
    return md5;
  }

  /** A completed job without its file, or a failure past its TTL: a PUT may start over. */
  private isStale(job: JobSnapshot): boolean {
    if (job.phase === 'completed') return true;
    if (job.phase !== 'failed') return false;
    return job.finishedOn === null || job.finishedOn + this.deps.jobs.keepFailedSeconds * 1000 <= this.deps.clock();
  }

  private async describe(md5: string, type: ThumbnailType, job: JobSnapshot, options: { queuedNow?: boolean } = {}): Promise<Exclude<ThumbnailState, { status: 'missing' }>> {
    if (job.phase === 'failed' && options.queuedNow) {
      const now = this.deps.clock();
      return { status: 'processing', md5, checkURL: this.checkUrlOf(md5, type), checkAt: now + MIN_WAIT_MS, time: MIN_WAIT_MS, startedAt: job.queuedAt, progress: job.progress ?? 0 };
    }
    if (job.phase === 'failed') {
      if (thumbnailFailureOf(job.failedReason) === 'notOnBoard') return { status: 'notOnBoard' };
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
