import { CREDIT_MAX_LENGTH } from '@pawlink/contracts';

/**
 * C0/C1 control characters (NUL, CR, LF…) are not display text; a lone surrogate would be stored by
 * MySQL as U+FFFD, so the credit answered at creation would differ from the one stored. Bidi
 * controls (embeddings, overrides, isolates, LRM/RLM, ALM) can reorder what is shown around the
 * credit on the preview page, as target URLs already refuse them. Other format characters stay
 * allowed: the zero-width joiner builds emoji sequences.
 */
export const NOT_TEXT = /[\p{Cc}\p{Cs}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** At most 50 characters, counted in code points as a reader counts them (an emoji is one). */
export const fitsCredit = (credit: string): boolean => [...credit].length <= CREDIT_MAX_LENGTH;
