import { API_KEY_FLAGS, DEFAULT_BULK_LIMIT, type ApiKeyFlag } from '@pawlink/contracts';
import { listOf, nonEmpty, nonNegativeInt, positiveInt } from '@pawlink/service-kit/cli';
import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { KeyFileRepository } from '../repositories/key-file.repository.js';
import { otherUsableKeys, verdictOnStoredKey } from '../services/stored-key.rules.js';
import { describeKey } from './apikey-describe.js';

interface EnsureOptions {
  keyFile: string;
  namePrefix: string;
  contact: string;
  flags: ApiKeyFlag[];
  bulkLimit?: number;
  rateLimitRoute?: number;
  rateLimitGlobal?: number;
}

/** `<prefix>-<UTC yyyymmddhhmmss>`: when the key was made, in its name. */
const keyName = (prefix: string, at: Date): string => `${prefix}-${at.toISOString().replace(/\D/g, '').slice(0, 14)}`;

/**
 * `apikey ensure`: one key per file, reused across runs. What `npm start` keeps its demo and
 * images-service keys with, so restarts never pile up keys.
 */
export function registerApiKeyEnsureCommand(apikey: Command, context: () => AdminContext): void {
  apikey
    .command('ensure')
    .description(
      'Print the key stored in --key-file while it is active, not disabled and has the flags; otherwise create one named <prefix>-<time>, ' +
        'store it there (mode 600) and print it. The key is alone on the last line either way.',
    )
    .requiredOption('--key-file <path>', 'where the key is kept between runs (`<id> <key>`)', nonEmpty(4096))
    .requiredOption('--name-prefix <prefix>', 'a new key is named <prefix>-<yyyymmddhhmmss>', nonEmpty(80))
    .requiredOption('--contact <contact>', 'how to reach its holder', nonEmpty(255))
    .option('--flags <flags>', `comma-separated: ${API_KEY_FLAGS.join(', ')}`, listOf(API_KEY_FLAGS), [])
    .option('--bulk-limit <n>', `images per bulk request of a new key (default ${DEFAULT_BULK_LIMIT})`, positiveInt)
    .option('--rate-limit-route <n>', 'requests per route window of a new key (0 = unlimited)', nonNegativeInt)
    .option('--rate-limit-global <n>', 'requests per global window of a new key (0 = unlimited)', nonNegativeInt)
    .action(async (options: EnsureOptions) => {
      const file = new KeyFileRepository(options.keyFile);
      const keys = await context().keyRepository();
      const storedKey = await file.read();
      const stored = storedKey === undefined ? null : await keys.findByKey(storedKey);
      const verdict = verdictOnStoredKey(stored, options.flags);
      const lines: string[] = [];
      let key: string;
      let id: number;
      if (verdict.action === 'reuse') {
        key = storedKey!;
        id = stored!.id;
        lines.push(`Reusing API key ${describeKey(stored!)}`);
      } else {
        if (storedKey !== undefined) lines.push(`Replacing the key in ${options.keyFile}: ${verdict.why}.`);
        if (verdict.revoke && stored) {
          await keys.update(stored.id, { active: false });
          lines.push(`Revoked API key ${stored.id}.`);
        }
        const { keyFile: _file, namePrefix, ...input } = options;
        const created = await keys.create({ ...input, name: keyName(namePrefix, new Date()) });
        await file.write(created.record.id, created.key);
        key = created.key;
        id = created.record.id;
        lines.push(`Created API key ${describeKey(created.record)}`);
      }
      const others = otherUsableKeys(await keys.list(), options.namePrefix, id);
      if (others.length > 0) {
        lines.push(
          `Other usable keys named ${options.namePrefix}…: ${others.map((other) => `id=${other.id}`).join(', ')} (another data directory's, or left by older starts; bin/admin apikey revoke <id> retires one).`,
        );
      }
      process.stdout.write(`${lines.join('\n')}\n${key}\n`);
    });
}
