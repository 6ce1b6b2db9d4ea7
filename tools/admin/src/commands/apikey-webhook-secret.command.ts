import { positiveInt, CommandFailure } from '@pawlink/service-kit/cli';
import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';

/**
 * `apikey webhook-secret <id>`: a new secret for the key's completion callbacks, printed once
 * alone on the last line; the old one signs nothing from now on. Stored sealed with
 * PAWLINK_SECRETS_KEY, which the delivering worker needs too.
 */
export function registerApiKeyWebhookSecretCommand(apikey: Command, context: () => AdminContext): void {
  apikey
    .command('webhook-secret')
    .description(
      "Make a new webhook secret for signing the key's completion callbacks; prints it alone on the last line (it cannot be shown again). The old one stops working.",
    )
    .argument('<id>', 'key id', positiveInt)
    .action(async (id: number) => {
      const secret = await (await context().webhookSecrets()).rotate(id);
      if (secret === null) throw new CommandFailure(`No API key with id ${id}.`);
      process.stdout.write(
        `New webhook secret for API key ${id} (the previous one no longer signs anything):\n${secret}\n`,
      );
    });
}
