import { RANDOM_CODE_ALPHABET, RANDOM_CODE_LENGTH, SHORT_CODE_MAX_LENGTH, SHORT_CODE_PATTERN } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import { randomInt } from 'node:crypto';

/** True for a string that could be a stored code; anything else cannot exist. */
export const isWellFormedCode = (value: string): boolean => value.length <= SHORT_CODE_MAX_LENGTH && SHORT_CODE_PATTERN.test(value);

/** A requested custom code, or undefined when none was given (empty counts as none). */
export function parseCustomCode(input: unknown): string | undefined {
  if (input === undefined || input === null || input === '') return undefined;
  if (typeof input !== 'string') throw new ApiError('INVALID_CODE');
  if (input.length > SHORT_CODE_MAX_LENGTH) throw new ApiError('CODE_TOO_LONG');
  if (!SHORT_CODE_PATTERN.test(input)) throw new ApiError('INVALID_CODE');
  return input;
}

/** 8 characters from [A-Za-z0-9], uniform, from the CSPRNG. */
export function randomCode(): string {
  let code = '';
  for (let i = 0; i < RANDOM_CODE_LENGTH; i++) code += RANDOM_CODE_ALPHABET[randomInt(RANDOM_CODE_ALPHABET.length)];
  return code;
}
