import type { QueueState, ThumbnailQueueRepository } from '../repositories/thumbnail-queue.repository.js';

/** The queue as an operator scaling workers sees it. */
export interface QueueStatus {
  /** Jobs per state, every state listed (0 when none). */
  jobs: Record<QueueState, number>;
  /** Connected worker processes. */
  workers: number;
}

/** What `bin/admin queue` does with the thumbnail queue. */
export class ThumbnailQueueAdminService {
  constructor(private readonly queue: Pick<ThumbnailQueueRepository, 'countJobs' | 'countWorkers' | 'removeFailed'>) {}

  async status(): Promise<QueueStatus> {
    const [jobs, workers] = await Promise.all([this.queue.countJobs(), this.queue.countWorkers()]);
    return { jobs, workers };
  }

  /**
   * Forgets failed and timed-out jobs that failed at least `olderThanSeconds` ago (0: all of
   * them), so the next PUT for each starts a new attempt at once instead of after the failure TTL.
   * Answers how many were removed.
   */
  async cleanFailed(olderThanSeconds: number): Promise<number> {
    return this.queue.removeFailed(Math.max(0, olderThanSeconds) * 1000);
  }
}
