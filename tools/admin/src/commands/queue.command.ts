import { THUMBNAIL_QUEUE, thumbnailQueuePrefix } from '@pawlink/contracts';
import { Queue } from 'bullmq';
import { createRedis } from '@pawlink/service-kit';
import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { nonNegativeInt } from '../usage-error.js';

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;

async function withQueue<T>(context: AdminContext, use: (queue: Queue) => Promise<T>): Promise<T> {
  const connection = createRedis(context.config.redis, { forQueue: true, name: 'admin-queue' });
  const queue = new Queue(THUMBNAIL_QUEUE, { connection, prefix: thumbnailQueuePrefix(context.config.redis.prefix) });
  try {
    return await use(queue);
  } finally {
    await queue.close();
    await connection.quit();
  }
}

/** `bin/admin queue`: the thumbnail queue as operators scaling workers need to see it. */
export function registerQueueCommands(program: Command, context: () => AdminContext): void {
  const queue = program.command('queue').description('The thumbnail job queue (BullMQ).');

  queue
    .command('status')
    .description('Jobs per state and the number of connected workers.')
    .action(async () => {
      await withQueue(context(), async (q) => {
        const counts = await q.getJobCounts(...STATES);
        const workers = await q.getWorkersCount();
        for (const state of STATES) process.stdout.write(`${state}: ${counts[state] ?? 0}\n`);
        process.stdout.write(`workers: ${workers}\n`);
      });
    });

  queue
    .command('clean-failed')
    .description('Forget failed and timed-out jobs now, so the next PUT retries them at once.')
    .option('--older-than <seconds>', 'only jobs that failed at least this long ago', nonNegativeInt, 0)
    .action(async (options: { olderThan: number }) => {
      await withQueue(context(), async (q) => {
        const removed = await q.clean(options.olderThan * 1000, 0, 'failed');
        process.stdout.write(`Removed ${removed.length} failed job(s).\n`);
      });
    });
}
