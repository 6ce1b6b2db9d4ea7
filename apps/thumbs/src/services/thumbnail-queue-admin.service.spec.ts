import { describe, expect, it } from 'vitest';
import type { QueueState, ThumbnailQueueRepository } from '../repositories/thumbnail-queue.repository.js';
import { ThumbnailQueueAdminService } from './thumbnail-queue-admin.service.js';

/** Failed jobs by how long ago they failed (ms). */
class InMemoryQueue implements Pick<ThumbnailQueueRepository, 'countJobs' | 'countWorkers' | 'removeFailed'> {
  failedAgoMs = [1000, 60_000, 120_000];
  countJobs(): Promise<Record<QueueState, number>> {
    return Promise.resolve({
      waiting: 2,
      prioritized: 0,
      delayed: 1,
      active: 1,
      completed: 5,
      failed: this.failedAgoMs.length,
    });
  }
  countWorkers(): Promise<number> {
    return Promise.resolve(3);
  }
  removeFailed(olderThanMs: number): Promise<number> {
    const kept = this.failedAgoMs.filter((ago) => ago < olderThanMs);
    const removed = this.failedAgoMs.length - kept.length;
    this.failedAgoMs = kept;
    return Promise.resolve(removed);
  }
}

describe('ThumbnailQueueAdminService', () => {
  it('reports every state and the workers', async () => {
    expect(await new ThumbnailQueueAdminService(new InMemoryQueue()).status()).toEqual({
      jobs: { waiting: 2, prioritized: 0, delayed: 1, active: 1, completed: 5, failed: 3 },
      workers: 3,
    });
  });

  it('forgets the failures at least that many seconds old (0: all)', async () => {
    const queue = new InMemoryQueue();
    const admin = new ThumbnailQueueAdminService(queue);
    expect(await admin.cleanFailed(60)).toBe(2);
    expect(queue.failedAgoMs).toEqual([1000]);
    expect(await admin.cleanFailed(0)).toBe(1);
    expect(queue.failedAgoMs).toEqual([]);
  });
});
