import type { Command } from 'commander';
import { CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import { openImagesContainer } from './cli-context.js';

/** `bin/admin images thumbhash`: computes the ThumbHash of every image that has none. */
export function registerThumbhashCommand(images: Command, context: () => CliContext): void {
  images
    .command('thumbhash')
    .description(
      'Compute the ThumbHash of every image that has none (imported before ThumbHashes existed) from its file; exit 1 if any file could not be read.',
    )
    .action(async () => {
      const { thumbhashBackfill } = await openImagesContainer(context());
      const { updated, failed } = await thumbhashBackfill.backfill();
      for (const { id, reason } of failed) process.stdout.write(`failed ${id}: ${reason}\n`);
      process.stdout.write(`Computed ${updated} ThumbHash(es); ${failed.length} image(s) failed.\n`);
      if (failed.length > 0)
        throw new CommandFailure(`${failed.length} image(s) have no readable file; their ThumbHash stays null.`);
    });
}
