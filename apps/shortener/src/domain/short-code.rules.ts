import { RANDOM_CODE_ALPHABET, RANDOM_CODE_LENGTH, SHORT_CODE } from '@pawlink/contracts';
import { randomInt } from 'node:crypto';

/** Any string that could be a stored code (`A-Za-z0-9-`, 1–50 characters: SHORT_CODE); nothing else can exist. */
export const isWellFormedCode = (value: string): boolean => SHORT_CODE.test(value);

/** 8 characters from [A-Za-z0-9], uniform, from the CSPRNG. */
export function randomCode(): string {
  let code = '';
  for (let i = 0; i < RANDOM_CODE_LENGTH; i++) code += RANDOM_CODE_ALPHABET[randomInt(RANDOM_CODE_ALPHABET.length)];
  return code;
}
