import { migrateDatabase } from '@pawlink/service-kit';
import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { DATABASES } from '../databases.js';

export function registerMigrateCommand(program: Command, context: () => AdminContext): void {
  program
    .command('migrate')
    .description('Create the databases when missing and apply pending migrations.')
    .action(async () => {
      const { config } = context();
      for (const spec of DATABASES) {
        const applied = await migrateDatabase(config.database, spec);
        process.stdout.write(
          `${config.database.prefix}${spec.name}: ${applied.length === 0 ? 'up to date' : `applied ${applied.join(', ')}`}\n`,
        );
      }
    });
}
