import type { BaseConfig } from '@pawlink/service-kit';
import type { Redis } from 'ioredis';

/** The part of bin/admin's AdminContext these commands use (structural, so admin can pass its own). */
export interface ThumbsCliContext {
  readonly config: Pick<BaseConfig, 'redis'>;
  /**
   * A Redis connection BullMQ can use (`createRedis(config.redis, { forQueue: true })`), opened
   * on first use and closed by the context when the command ends; commands never close it.
   */
  queueRedis(): Redis;
}

/**
 * The part of commander's `Command` these commands call. Structural, so this package needs no
 * commander of its own: bin/admin passes its program and gets commander's behaviour.
 */
export interface CliCommand {
  command(nameAndArgs: string): CliCommand;
  description(text: string): CliCommand;
  option(flags: string, description: string, parse: (value: string, previous: unknown) => unknown, defaultValue: unknown): CliCommand;
  action<A extends unknown[]>(handler: (...args: A) => void | Promise<void>): CliCommand;
}

/**
 * A bad option value, as commander recognises it: commander turns an error with this `code`
 * thrown by an option parser into its usage error (`option '…' argument '…' is invalid. …`),
 * exactly as it does for its own `InvalidArgumentError`, which this package cannot import.
 */
export class InvalidOptionValue extends Error {
  readonly code = 'commander.invalidArgument';
  readonly exitCode = 1;

  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgumentError';
  }
}

/** `--older-than <seconds>` and the like: a whole number from 0 to 2^31 − 1. */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2_147_483_647) throw new InvalidOptionValue('expected a non-negative integer.');
  return Number(value);
}
