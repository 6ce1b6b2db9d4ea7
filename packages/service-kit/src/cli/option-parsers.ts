import { InvalidArgumentError } from 'commander';

/** Parsers for option values; a bad value becomes commander's usage error (bin/admin exits 2). */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647)
    throw new InvalidArgumentError('expected a positive integer.');
  return Number(value);
}

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2_147_483_647)
    throw new InvalidArgumentError('expected a non-negative integer.');
  return Number(value);
}

/** Trimmed, non-empty text of at most `max` characters. */
export function nonEmpty(max: number) {
  return (value: string): string => {
    const trimmed = value.trim();
    if (trimmed === '') throw new InvalidArgumentError('must not be empty.');
    if (trimmed.length > max) throw new InvalidArgumentError(`must be at most ${max} characters.`);
    return trimmed;
  };
}

export function oneOf<T extends string>(allowed: readonly T[]) {
  return (value: string): T => {
    if (!(allowed as readonly string[]).includes(value))
      throw new InvalidArgumentError(`expected one of: ${allowed.join(', ')}.`);
    return value as T;
  };
}

/** A comma-separated list of allowed values, without repeats; an empty value is the empty list. */
export function listOf<T extends string>(allowed: readonly T[]) {
  return (value: string): T[] => {
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    for (const item of items) {
      if (!(allowed as readonly string[]).includes(item))
        throw new InvalidArgumentError(`unknown value "${item}"; expected: ${allowed.join(', ')}.`);
    }
    return [...new Set(items)] as T[];
  };
}

/** A repeatable option: every occurrence is parsed and collected. */
export function collect(parse: (value: string) => string) {
  return (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), parse(value)];
}
