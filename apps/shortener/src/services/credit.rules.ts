import { CREDIT_MAX_LENGTH } from '@pawlink/contracts';

/**
 * C0/C1 control characters (NUL, CR, LF…) are not display text; a lone surrogate would be stored by
 * MySQL as U+FFFD, so the credit answered at creation would differ from the one stored.
 */
export const NOT_TEXT = /[\p{Cc}\p{Cs}]/u;

/** At most 50 characters, counted in code points as a reader counts them (an emoji is one). */
export const fitsCredit = (credit: string): boolean => [...credit].length <= CREDIT_MAX_LENGTH;
