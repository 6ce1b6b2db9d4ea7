import type { Command } from 'commander';
import { CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import { openCategoryAdmin } from './cli-context.js';
import { categoryKey, categoryName, text } from './options.js';

/** `bin/admin category add|update|disable|enable|list`. */
export function registerCategoryCommands(program: Command, context: () => CliContext): void {
  const category = program.command('category').description('Manage image categories (<DB_PREFIX>images).');

  category
    .command('add')
    .description('Create a category; it is listed as disabled until it has images.')
    .argument('<db>', 'category key, e.g. furry.hug', categoryKey)
    .requiredOption('--name <name>', 'display name, groups joined by " > ", e.g. "Furry > Hug"', categoryName)
    .option('--sfw', 'safe for work: keys with the sfw_only flag may use it (not SFW unless given)', false)
    .action(async (db: string, options: { name: string; sfw: boolean }) => {
      if (!(await (await openCategoryAdmin(context())).add(db, options.name, options.sfw)))
        throw new CommandFailure(`Category ${db} already exists.`);
      process.stdout.write(`Added category ${db} (${options.name})${options.sfw ? ', SFW' : ''}.\n`);
    });

  category
    .command('update')
    .description('Change a category: mark it SFW (--sfw) or not (--no-sfw).')
    .argument('<db>', 'category key', categoryKey)
    .option('--sfw', 'safe for work: keys with the sfw_only flag may use it')
    .option('--no-sfw', 'not safe for work: keys with the sfw_only flag get 403 (1058)')
    .action(async (db: string, options: { sfw?: boolean }) => {
      if (options.sfw === undefined) throw new CommandFailure('Nothing to change: give --sfw or --no-sfw.');
      if (!(await (await openCategoryAdmin(context())).setSfw(db, options.sfw)))
        throw new CommandFailure(`No category ${db}.`);
      process.stdout.write(`Category ${db} is ${options.sfw ? 'SFW' : 'not SFW'}.\n`);
    });

  category
    .command('disable')
    .description('Disable a category: listed with the comment, its random endpoint answers 1030.')
    .argument('<db>', 'category key', categoryKey)
    .requiredOption('--comment <comment>', 'why; shown as _comment', text(500))
    .action(async (db: string, options: { comment: string }) => {
      if (!(await (await openCategoryAdmin(context())).disable(db, options.comment)))
        throw new CommandFailure(`No category ${db}.`);
      process.stdout.write(`Disabled category ${db}.\n`);
    });

  category
    .command('enable')
    .description('Lift a disable.')
    .argument('<db>', 'category key', categoryKey)
    .action(async (db: string) => {
      if (!(await (await openCategoryAdmin(context())).enable(db))) throw new CommandFailure(`No category ${db}.`);
      process.stdout.write(`Enabled category ${db}.\n`);
    });

  category
    .command('list')
    .description('List categories with their state and image count.')
    .action(async () => {
      const rows = await (await openCategoryAdmin(context())).list();
      if (rows.length === 0) {
        process.stdout.write('No categories.\n');
        return;
      }
      for (const row of rows) {
        const state = row.disabled
          ? `disabled comment=${JSON.stringify(row.disabledComment ?? '')}`
          : row.hasContent
            ? 'enabled'
            : 'disabled (no content)';
        process.stdout.write(
          `${row.db} name=${JSON.stringify(row.name)} images=${row.images} ${state} sfw=${row.sfw ? 'yes' : 'no'}\n`,
        );
      }
    });
}
