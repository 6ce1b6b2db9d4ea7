import { MAX_KEEP_PREVIOUS_MS } from '@pawlink/auth';
import { positiveInt, CommandFailure } from '@pawlink/service-kit/cli';
import { InvalidArgumentError, type Command } from 'commander';
import type { AdminContext } from '../admin-context.js';

const HOUR_MS = 3_600_000;
const MAX_KEEP_HOURS = MAX_KEEP_PREVIOUS_MS / HOUR_MS;

/** `--keep-previous-hours`: 1 to 168. */
function keepHours(value: string): number {
  const hours = positiveInt(value);
  if (hours > MAX_KEEP_HOURS) throw new InvalidArgumentError(`expected at most ${MAX_KEEP_HOURS} (a week).`);
  return hours;
}

/**
 * `apikey webhook-secret <id>`: a new secret for the key's completion callbacks (Standard
 * Webhooks form, `whsec_` + base64), printed once alone on the last line. The old one signs
 * nothing from now on, unless `--keep-previous-hours` keeps it signing `webhook-signature` beside
 * the new one for a while (zero-downtime rotation; `X-Pawlink-Signature` uses the new one only).
 * Stored sealed with PAWLINK_SECRETS_KEY, which the delivering worker needs too.
 */
export function registerApiKeyWebhookSecretCommand(apikey: Command, context: () => AdminContext): void {
  apikey
    .command('webhook-secret')
    .description(
      "Make a new webhook secret for signing the key's completion callbacks; prints it alone on the last line (it cannot be shown again). The old one stops working, unless --keep-previous-hours keeps it signing webhook-signature beside the new one.",
    )
    .argument('<id>', 'key id', positiveInt)
    .option(
      '--keep-previous-hours <hours>',
      `keep the replaced secret signing webhook-signature (a second signature) for this many hours, at most ${MAX_KEEP_HOURS}`,
      keepHours,
    )
    .action(async (id: number, options: { keepPreviousHours?: number }) => {
      const hours = options.keepPreviousHours ?? 0;
      const keepPreviousMs = hours * HOUR_MS;
      const secret = await (await context().webhookSecrets()).rotate(id, { keepPreviousMs });
      if (secret === null) throw new CommandFailure(`No API key with id ${id}.`);
      const previous =
        hours > 0
          ? `the previous one signs webhook-signature beside it for ${hours} hour${hours === 1 ? '' : 's'}, X-Pawlink-Signature no longer`
          : 'the previous one no longer signs anything';
      process.stdout.write(`New webhook secret for API key ${id} (${previous}):\n${secret}\n`);
    });
}
