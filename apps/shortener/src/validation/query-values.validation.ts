import { fail, failWith } from '@pawlink/service-kit';
import { query, type ValidationChain } from 'express-validator';

/** A query value given once (a repeated parameter arrives as an array). */
export const isSingle = (value: unknown): value is string => typeof value === 'string';
/** How a value is quoted in a message: its first 50 characters. */
export const quoted = (value: unknown): string => JSON.stringify(String(value).slice(0, 50));

/**
 * `name` → a whole number from `min` to `max`, `fallback` when absent: plain decimal digits, given
 * once; anything else (empty, signed, fractional, repeated, out of range) is 400 1057.
 */
export function wholeNumberQuery(
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): ValidationChain {
  const expected = `give it once, as a whole number from ${min} to ${max}`;
  return query(name)
    .customSanitizer((value: unknown) => value ?? String(fallback))
    .custom(isSingle)
    .withMessage(fail('INVALID_QUERY_VALUE', `Invalid ${name}: ${expected}.`))
    .bail()
    .matches(/^[0-9]{1,9}$/)
    .withMessage(failWith('INVALID_QUERY_VALUE', (value) => `Invalid ${name}: ${quoted(value)}; ${expected}.`))
    .bail()
    .toInt()
    .custom((n: number) => n >= min && n <= max)
    .withMessage(
      failWith('INVALID_QUERY_VALUE', (value) => `Invalid ${name}: ${quoted(value)} is out of range; ${expected}.`),
    );
}
