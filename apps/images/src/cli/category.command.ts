import type { Command } from 'commander';
import { CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import { openCategoryAdmin } from './cli-context.js';
import { categoryKey, categoryName, text } from './options.js';

/** `bin/admin category add|disable|enable|list`. */
export function registerCategoryCommands(program: Command, context: () => CliContext): void {
  const category = program.command('category').description('Manage image categories (<DB_PREFIX>images).');

  category
    .command('add')
    .description('Create a category; it is listed as disabled until it has images.')
    .argument('<db>', 'category key, e.g. furry.hug', categoryKey)
    .requiredOption('--name <name>', 'display name, groups joined by " > ", e.g. "Furry > Hug"', categoryName)
    .action(async (db: string, options: { name: string }) => {
      if (!(await (await openCategoryAdmin(context())).add(db, options.name))) throw new CommandFailure(`Category ${db} already exists.`);
      process.stdout.write(`Added category ${db} (${options.name}).\n`);
    });

  category
    .command('disable')
    .description('Disable a category: listed with the comment, its random endpoint answers 1030.')
    .argument('<db>', 'category key', categoryKey)
    .requiredOption('--comment <comment>', 'why; shown as _comment', text(500))
    .action(async (db: string, options: { comment: string }) => {
      if (!(await (await openCategoryAdmin(context())).disable(db, options.comment))) throw new CommandFailure(`No category ${db}.`);
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
        const state = row.disabled ? `disabled comment=${JSON.stringify(row.disabledComment ?? '')}` : row.hasContent ? 'enabled' : 'disabled (no content)';
        process.stdout.write(`${row.db} name=${JSON.stringify(row.name)} images=${row.images} ${state}\n`);
      }
    });
}
