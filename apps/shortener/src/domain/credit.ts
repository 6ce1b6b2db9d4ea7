import { CREDIT_MAX_LENGTH, DEFAULT_CREDIT } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';

/**
 * C0/C1 control characters (NUL, CR, LF…) are not display text; a lone surrogate would be stored by
 * MySQL as U+FFFD, so the credit answered at creation would differ from the one stored.
 */
const NOT_TEXT = /[\p{Cc}\p{Cs}]/u;

/** A credit as stored: "Unknown" when absent or blank; at most 50 characters (code points). */
export function parseCredit(input: unknown): string {
  if (input === undefined || input === null) return DEFAULT_CREDIT;
  if (typeof input !== 'string') throw new ApiError('CREDIT_TOO_LONG', { message: 'The provided credit must be a string of at most 50 characters.' });
  const credit = input.trim();
  if ([...credit].length > CREDIT_MAX_LENGTH) throw new ApiError('CREDIT_TOO_LONG');
  if (NOT_TEXT.test(credit)) throw new ApiError('CREDIT_TOO_LONG', { message: 'The provided credit must be plain text: no control characters or broken unicode.' });
  return credit === '' ? DEFAULT_CREDIT : credit;
}
