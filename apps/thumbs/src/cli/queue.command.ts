import { nonNegativeInt, type CliContext } from '@pawlink/service-kit/cli';
import type { Command } from 'commander';
import { openThumbsQueueAdmin } from '../container.js';
import type { ThumbnailQueueAdminService } from '../services/thumbnail-queue-admin.service.js';

async function withQueueAdmin<T>(
  context: CliContext,
  use: (admin: ThumbnailQueueAdminService) => Promise<T>,
): Promise<T> {
  const admin = openThumbsQueueAdmin(context.queueRedis(), context.config.redis.prefix);
  try {
    return await use(admin.queueAdmin);
  } finally {
    await admin.close();
  }
}

/** `bin/admin queue status|clean-failed`: the thumbnail queue as operators scaling workers need to see it. */
export function registerQueueCommands(program: Command, context: () => CliContext): void {
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
