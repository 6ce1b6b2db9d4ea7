import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerQueueMetrics, type CountedQueue } from './queue.metrics.js';

const queue = (name: string, counts: () => Promise<Record<string, number>>): CountedQueue => ({
  name,
  getJobCounts: counts,
});

describe('thumbs_queue_jobs', () => {
  it('reports each state of each queue when scraped, and leaves out a queue Redis did not count', async () => {
    const registry = new Registry();
    let redisUp = true;
    registerQueueMetrics(registry, [
      queue('thumbs', () => Promise.resolve({ waiting: 4, active: 1, failed: 2 })),
      queue('thumbnail-callbacks', () =>
        redisUp ? Promise.resolve({ delayed: 3 }) : Promise.reject(new Error('Command timed out')),
      ),
    ]);
    let text = await registry.metrics();
    expect(text).toContain('thumbs_queue_jobs{queue="thumbs",state="waiting"} 4');
    expect(text).toContain('thumbs_queue_jobs{queue="thumbs",state="delayed"} 0');
    expect(text).toContain('thumbs_queue_jobs{queue="thumbnail-callbacks",state="delayed"} 3');
    redisUp = false;
    text = await registry.metrics();
    expect(text).toContain('thumbs_queue_jobs{queue="thumbs",state="active"} 1');
    expect(text).not.toContain('queue="thumbnail-callbacks"');
  });
});
