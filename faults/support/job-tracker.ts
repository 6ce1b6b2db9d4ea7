import { jobId, type ThumbnailJobKey } from './board-posts.js';

export type JobOutcome = 'completed' | 'failed' | 'timeout';

/** A thumbnail job some client was told is queued (202, or 200 "processing" on check). */
export interface TrackedJob {
  key: ThumbnailJobKey;
  id: string;
  firstAckAt: number;
  lastAckAt: number;
  endedAt?: number;
  outcome?: JobOutcome;
  /** Last time check answered 404 1066 (no such job) while it had not ended. */
  vanishedAt?: number;
  /** Last answer about it, whatever it said. */
  lastObservedAt: number;
}

/** What the answers of PUT and check said about each job. */
export class JobTracker {
  readonly jobs = new Map<string, TrackedJob>();

  acknowledged(key: ThumbnailJobKey, at: number): void {
    const id = jobId(key);
    const job = this.jobs.get(id);
    if (job) {
      job.lastAckAt = at;
      job.vanishedAt = undefined;
    } else {
      this.jobs.set(id, { key, id, firstAckAt: at, lastAckAt: at, lastObservedAt: at });
    }
  }

  /** Any answer about the job (so the watch knows whom nobody polls). */
  observed(key: ThumbnailJobKey, at: number): void {
    const job = this.jobs.get(jobId(key));
    if (job) job.lastObservedAt = Math.max(job.lastObservedAt, at);
  }

  get(id: string): TrackedJob | undefined {
    return this.jobs.get(id);
  }

  /** Only jobs that were acknowledged are tracked; a PUT answering "done" at once was never open. */
  ended(key: ThumbnailJobKey, at: number, outcome: JobOutcome): void {
    const job = this.jobs.get(jobId(key));
    if (job && job.endedAt === undefined) {
      job.endedAt = at;
      job.outcome = outcome;
    }
  }

  vanished(key: ThumbnailJobKey, at: number): void {
    const job = this.jobs.get(jobId(key));
    if (job && job.endedAt === undefined) job.vanishedAt = at;
  }

  /** Jobs acknowledged by `at` and not (yet) ended then. */
  openAt(at: number): TrackedJob[] {
    return [...this.jobs.values()].filter(
      (job) => job.firstAckAt <= at && (job.endedAt === undefined || job.endedAt > at),
    );
  }

  open(): TrackedJob[] {
    return [...this.jobs.values()].filter((job) => job.endedAt === undefined);
  }
}
