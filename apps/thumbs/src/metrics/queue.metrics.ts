import { Gauge, type Registry } from 'prom-client';

/** The job states a gauge reports, BullMQ's names. */
export const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed', 'paused'] as const;

/** What the gauge asks of a queue (BullMQ's `Queue`). */
export interface CountedQueue {
  readonly name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

/**
 * `thumbs_queue_jobs{queue, state}`: the jobs in each state of each queue, counted in Redis when
 * scraped (one command per queue). Reported by the thumbs service, not the workers: it is there
 * when no worker runs, which is when the queue grows. Every replica reports the same numbers
 * (`max by (queue, state)` reads them once). While Redis does not answer, the gauge has no samples
 * and `pawlink_dependency_up{dependency="redis"}` says why; the rest of the scrape is served.
 */
export function registerQueueMetrics(registry: Registry, queues: readonly CountedQueue[]): void {
  new Gauge({
    name: 'thumbs_queue_jobs',
    help: 'Jobs in each state of each queue (thumbs: thumbnails; thumbnail-callbacks: completion callbacks), counted when scraped.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      const counts = await Promise.all(
        queues.map((queue) => queue.getJobCounts(...QUEUE_STATES).catch(() => undefined)),
      );
      this.reset();
      queues.forEach((queue, i) => {
        const count = counts[i];
        if (count) for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, count[state] ?? 0);
      });
    },
  });
}
