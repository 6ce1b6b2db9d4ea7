import { SERVICES, type ServiceName } from '@pawlink/contracts';
import { getReadOnly, setReadOnly } from '@pawlink/service-kit';
import { Option, type Command } from 'commander';
import type { AdminContext } from '../admin-context.js';
import { oneOf } from '@pawlink/service-kit/cli';

type Target = ServiceName | 'all';
const targets = (target: Target): readonly ServiceName[] => (target === 'all' ? SERVICES : [target]);

export function registerReadOnlyCommands(program: Command, context: () => AdminContext): void {
  const serviceOption = () =>
    new Option('--service <service>', 'which service').argParser(oneOf<Target>([...SERVICES, 'all'])).default('all');

  const readonly = program
    .command('readonly')
    .description('The run-time read-only switch (running services see it within a second).');

  for (const state of ['on', 'off'] as const) {
    readonly
      .command(state)
      .description(`Turn read-only mode ${state}.`)
      .addOption(serviceOption())
      .action(async (options: { service: Target }) => {
        const ctx = context();
        await setReadOnly(ctx.redis, ctx.config.redis.prefix, targets(options.service), state === 'on');
        process.stdout.write(`Read-only ${state} for ${targets(options.service).join(', ')}.\n`);
      });
  }

  readonly
    .command('status')
    .description('Show the switch per service.')
    .addOption(serviceOption())
    .action(async (options: { service: Target }) => {
      const ctx = context();
      const stored = await getReadOnly(ctx.redis, ctx.config.redis.prefix);
      for (const service of targets(options.service)) {
        const value = stored[service];
        const effective = value ?? ctx.config.readOnlyDefault;
        process.stdout.write(
          `${service}: ${effective ? 'on' : 'off'}${value === null ? ' (READ_ONLY default)' : ''}\n`,
        );
      }
    });
}
