import { setTimeout as sleep } from 'node:timers/promises';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import { imagesSettings, openImagesContainer } from './cli-context.js';

/** Progress of a backfill: a bar on a terminal, else one line per batch. */
function backfillProgress(): { update: (filled: number, missing: number) => void; finish: () => void } {
  if (process.stdout.isTTY !== true) {
    return {
      update: (filled, missing) => void process.stdout.write(`short links: ${filled}/${missing}\n`),
      finish: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: 'short links [{bar}] {value}/{total}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(filled, missing) {
      if (!started) bar.start(missing, 0);
      started = true;
      bar.update(Math.min(filled, missing));
    },
    finish: () => void (started && bar.stop()),
  };
}

/** `bin/admin images shortlinks`: every image without a short link gets one now. */
export function registerShortLinkCommand(images: Command, context: () => CliContext): void {
  images
    .command('shortlinks')
    .description(
      'Create the missing short links of all images on the shortener now (SHORTENER_URL or SHORTENER_API_URL, SHORTENER_KEY); exit 1 when the shortener cannot make them.',
    )
    .action(async () => {
      const { shortLinks } = await openImagesContainer(context());
      const { apiUrl } = imagesSettings(context().config).shortLinks;
      if (!shortLinks.configured)
        throw new CommandFailure(
          'SHORTENER_KEY is not set: give it a key with the shortener flag (bin/admin apikey create --flags shortener …).',
        );
      const progress = backfillProgress();
      const result = await shortLinks.backfill({
        sleep: async (ms) => {
          process.stdout.write(`The shortener asks to wait ${Math.ceil(ms / 1000)} s (429); waiting.\n`);
          await sleep(ms);
        },
        onProgress: progress.update,
      });
      progress.finish();
      if (result.failure !== undefined) {
        throw new CommandFailure(
          `Short links could not be made: ${result.failure} (shortener at ${apiUrl}). Created ${result.filled}; ${result.remaining} image(s) still have none.`,
        );
      }
      process.stdout.write(
        `Created ${result.filled} short link(s); ${result.missing} image(s) had none; ${result.remaining} still have none.\n`,
      );
    });
}
