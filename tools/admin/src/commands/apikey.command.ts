import { API_KEY_FLAGS, DEFAULT_BULK_LIMIT, type ApiKeyFlag } from '@pawlink/contracts';
import type { ApiKeyAdminService, KeyUsage } from '@pawlink/auth';
import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { CommandFailure, listOf, nonEmpty, nonNegativeInt, positiveInt } from '@pawlink/service-kit/cli';
import { describeKey } from './apikey-describe.js';
import { registerApiKeyEnsureCommand } from './apikey-ensure.command.js';
import { registerApiKeyWebhookSecretCommand } from './apikey-webhook-secret.command.js';

/** Runs a change on key `id`, failing (exit 1) when there is no such key. */
async function changeKey(
  context: AdminContext,
  id: number,
  change: (keys: ApiKeyAdminService) => Promise<boolean>,
  done: string,
): Promise<void> {
  if (!(await change(await context.apiKeys()))) throw new CommandFailure(`No API key with id ${id}.`);
  process.stdout.write(`${done}\n`);
}

/** Longest `apikey usage --days`. */
const MAX_USAGE_DAYS = 400;

/** A key's usage as lines: per day its total, then per `<service> <route>` its requests. */
export const usageLines = (id: number, dayCount: number, usage: KeyUsage): string[] => {
  const total = usage.days.reduce((sum, day) => sum + day.total, 0);
  const first = usage.days[0]?.date;
  const lines = [
    `API key ${id}: ${total} requests in the last ${dayCount} UTC days up to ${usage.today.date} (all services)${first ? '' : '.'}`,
  ];
  for (const day of usage.days) {
    lines.push(`${day.date}  ${day.total}`);
    for (const [route, count] of Object.entries(day.routes)) lines.push(`  ${route}  ${count}`);
  }
  return lines;
};

export function registerApiKeyCommands(program: Command, context: () => AdminContext): void {
  const apikey = program.command('apikey').description('Manage API keys (stored hashed in <DB_PREFIX>auth).');

  apikey
    .command('create')
    .description('Create a key; prints it alone on the last line (it cannot be shown again).')
    .requiredOption('--name <name>', 'who the key is for', nonEmpty(100))
    .requiredOption('--contact <contact>', 'how to reach them', nonEmpty(255))
    .option(
      '--flags <flags>',
      `comma-separated: ${API_KEY_FLAGS.join(', ')}; none (omitted or "") makes a key that only identifies its holder`,
      listOf(API_KEY_FLAGS),
      [],
    )
    .option('--bulk-limit <n>', `images per bulk request (default ${DEFAULT_BULK_LIMIT})`, positiveInt)
    .option(
      '--rate-limit-route <n>',
      'requests per route window instead of the default (0 = unlimited)',
      nonNegativeInt,
    )
    .option(
      '--rate-limit-global <n>',
      'requests per global window instead of the default (0 = unlimited)',
      nonNegativeInt,
    )
    .action(
      async (options: {
        name: string;
        contact: string;
        flags: ApiKeyFlag[];
        bulkLimit?: number;
        rateLimitRoute?: number;
        rateLimitGlobal?: number;
      }) => {
        const { key, record } = await (await context().apiKeys()).create(options);
        process.stdout.write(`Created API key ${describeKey(record)}\n${key}\n`);
      },
    );

  registerApiKeyEnsureCommand(apikey, context);
  registerApiKeyWebhookSecretCommand(apikey, context);

  apikey
    .command('list')
    .description('List keys (never the keys themselves).')
    .action(async () => {
      const list = await (await context().apiKeys()).list();
      if (list.length === 0) process.stdout.write('No API keys.\n');
      for (const key of list) process.stdout.write(`${describeKey(key)}\n`);
    });

  apikey
    .command('disable')
    .description('Disable a key; requests with it get 403 code 1012 with the reason.')
    .argument('<id>', 'key id', positiveInt)
    .requiredOption('--reason <reason>', 'shown to the key holder', nonEmpty(500))
    .action(async (id: number, options: { reason: string }) => {
      await changeKey(context(), id, (keys) => keys.disable(id, options.reason), `Disabled API key ${id}.`);
    });

  apikey
    .command('enable')
    .description('Lift a disable.')
    .argument('<id>', 'key id', positiveInt)
    .action(async (id: number) => {
      await changeKey(context(), id, (keys) => keys.enable(id), `Enabled API key ${id}.`);
    });

  apikey
    .command('usage')
    .description("Print a key's requests per UTC day and route, all services (moved to MySQL or waiting in Redis).")
    .argument('<id>', 'key id', positiveInt)
    .option('--days <n>', `days up to today (default 30, at most ${MAX_USAGE_DAYS})`, positiveInt, 30)
    .action(async (id: number, options: { days: number }) => {
      if (options.days > MAX_USAGE_DAYS) throw new CommandFailure(`--days must be at most ${MAX_USAGE_DAYS}.`);
      const { keys, usage } = await context().keyUsage();
      if (!(await keys.findById(id))) throw new CommandFailure(`No API key with id ${id}.`);
      const lines = usageLines(id, options.days, await usage.ofKey(id, { service: null, dayCount: options.days }));
      process.stdout.write(`${lines.join('\n')}\n`);
    });

  apikey
    .command('revoke')
    .description('Make a key permanently inactive (401 code 1011); kept for the record.')
    .argument('<id>', 'key id', positiveInt)
    .action(async (id: number) => {
      await changeKey(context(), id, (keys) => keys.revoke(id), `Revoked API key ${id}.`);
    });
}
