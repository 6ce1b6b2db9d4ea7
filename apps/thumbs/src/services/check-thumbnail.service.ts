import type { ThumbnailType } from '@pawlink/contracts';
import type { JobDurationRepository } from '../repositories/job-duration.repository.js';
import type { ThumbnailFileRepository } from '../repositories/thumbnail-file.repository.js';
import type { JobPolicy, JobRead } from '../domain/thumbnail-state.rules.js';
import type { ThumbnailQueueRepository } from '../repositories/thumbnail-queue.repository.js';
import {
  doneState,
  isStaleJob,
  processingStateOf,
  settledStateOf,
  type ThumbnailRef,
  type ThumbnailState,
  type ThumbnailUrls,
} from '../domain/thumbnail-state.rules.js';

export interface CheckThumbnailDeps {
  files: Pick<ThumbnailFileRepository, 'exists'>;
  queue: Pick<ThumbnailQueueRepository, 'find' | 'load'>;
  durations: Pick<JobDurationRepository, 'averageMs'>;
  urls: ThumbnailUrls;
  /** A failed job is reported for `keepFailedSeconds`, then it is missing. */
  jobs: Pick<JobPolicy, 'keepFailedSeconds'>;
  clock: () => number;
}

/**
 * GET /check/:md5/:type (docs/api.md, "Thumbnails"): like PUT but never starts anything; an
 * unknown or expired job is missing. The file, then the job and the queue's lengths in one Redis
 * script: the answer's state is read on every request. Only the estimate uses per-process views:
 * recent durations, the worker slots, and the job's place in the wait list (at most 250 ms old).
 */
export class CheckThumbnailService {
  constructor(private readonly deps: CheckThumbnailDeps) {}

  async check(md5: string, type: ThumbnailType): Promise<ThumbnailState> {
    const { files, queue, jobs, clock } = this.deps;
    const ref: ThumbnailRef = { md5, type, urls: this.deps.urls };
    if (await files.exists(md5, type)) return doneState(ref);
    const read = await queue.find(md5, type);
    if (!read) return { status: 'missing' };
    const { job } = read;
    if (job.phase === 'completed') {
      // The job may have finished between the two reads; a completed job without its file is not a thumbnail.
      return (await files.exists(md5, type)) ? doneState(ref) : { status: 'missing' };
    }
    if (isStaleJob(job, jobs.keepFailedSeconds, clock())) return { status: 'missing' };
    return this.stateOf(read, ref);
  }

  private async stateOf(read: JobRead, ref: ThumbnailRef): Promise<ThumbnailState> {
    const { job } = read;
    const settled = settledStateOf(job, ref, { queuedNow: false, now: this.deps.clock() });
    if (settled) return settled;
    const [averageJobMs, load] = await Promise.all([this.deps.durations.averageMs(), this.deps.queue.load(read)]);
    return processingStateOf(job, ref, { averageJobMs, load, now: this.deps.clock() });
  }
}
