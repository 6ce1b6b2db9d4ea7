import { Command } from 'commander';
import { AdminContext } from './admin-context.js';
import { COMMANDS } from './commands/index.js';

/** The `bin/admin` program; unknown commands, options and bad values are usage errors (exit 2). */
export function buildProgram(): { program: Command; closeContext: () => Promise<void> } {
  let context: AdminContext | undefined;
  const program = new Command('admin')
    .description('Pawlink operator CLI')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true);
  program.configureHelp({ sortSubcommands: true });
  for (const register of COMMANDS) register(program, () => (context ??= new AdminContext()));
  const applyStrictness = (command: Command): void => {
    command.exitOverride().allowExcessArguments(false).allowUnknownOption(false);
    command.commands.forEach(applyStrictness);
  };
  applyStrictness(program);
  return { program, closeContext: async () => context?.close() };
}
