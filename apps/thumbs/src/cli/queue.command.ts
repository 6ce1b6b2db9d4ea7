import { createThumbsQueueAdmin } from '../container.js';
import { openThumbnailQueue } from '../repositories/thumbnail-queue.repository.js';
import type { ThumbnailQueueAdminService } from '../services/thumbnail-queue-admin.service.js';
import { nonNegativeInt, type CliCommand, type ThumbsCliContext } from './cli-context.js';

async function withQueueAdmin<T>(context: ThumbsCliContext, use: (admin: ThumbnailQueueAdminService) => Promise<T>): Promise<T> {
  const connection = context.queueRedis();
  const queue = openThumbnailQueue(connection, context.config.redis.prefix);
  try {
    return await use(createThumbsQueueAdmin(queue, connection, context.config.redis.prefix));
  } finally {
    await queue.close();
  }
}

/** `bin/admin queue status|clean-failed`: the thumbnail queue as operators scaling workers need to see it. */
export function registerQueueCommands(program: CliCommand, context: () => ThumbsCliContext): void {
  const queue = program.command('queue').description('The thumbnail job queue (BullMQ).');

  queue
    .command('status')
    .description('Jobs per state and the number of connected workers.')
    .action(async () => {
      const status = await withQueueAdmin(context(), (admin) => admin.status());
      for (const [state, count] of Object.entries(status.jobs)) process.stdout.write(`${state}: ${count}\n`);
      process.stdout.write(`workers: ${status.workers}\n`);
    });

  queue
    .command('clean-failed')
    .description('Forget failed and timed-out jobs now, so the next PUT retries them at once.')
    .option('--older-than <seconds>', 'only jobs that failed at least this long ago', nonNegativeInt, 0)
    .action(async (options: { olderThan: number }) => {
      const removed = await withQueueAdmin(context(), (admin) => admin.cleanFailed(options.olderThan));
      process.stdout.write(`Removed ${removed} failed job(s).\n`);
    });
}
