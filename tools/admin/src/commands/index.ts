import { registerCategoryCommands, registerImageCommands } from '@pawlink/images';
import { registerQueueCommands } from '@pawlink/thumbs';
import type { Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { registerApiKeyCommands } from './apikey.command.js';
import { registerLinkCommands } from './links.command.js';
import { registerMigrateCommand } from './migrate.command.js';
import { registerReadOnlyCommands } from './readonly.command.js';

export type CommandRegistrar = (program: Command, context: () => AdminContext) => void;

/** Every command group of `bin/admin`; a service adds its own here. */
export const COMMANDS: CommandRegistrar[] = [
  registerApiKeyCommands,
  registerReadOnlyCommands,
  registerMigrateCommand,
  registerCategoryCommands,
  registerImageCommands,
  registerQueueCommands,
  registerLinkCommands,
];
