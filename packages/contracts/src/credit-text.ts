/** The longest credit, in code points. */
export const CREDIT_MAX_LENGTH = 50;

/**
 * What a credit may not contain: a shortener entry's credit, and an image's artist at import.
 * C0/C1 control characters (NUL, CR, LF…) are not display text, and the line and paragraph
 * separators U+2028/U+2029 break lines as LF does; a lone surrogate would be stored by MySQL as
 * U+FFFD, so the credit answered would differ from the one stored. Bidi controls (embeddings,
 * overrides, isolates, LRM/RLM, ALM) can reorder what is shown around the credit, as target URLs
 * already refuse them. Other format characters stay allowed: the zero-width joiner builds emoji
 * sequences.
 */
export const CREDIT_NOT_TEXT = /[\p{Cc}\p{Cs}\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** A credit's length as a reader counts it: in code points (an emoji is one). */
export const creditLength = (credit: string): number => [...credit].length;

/** At most CREDIT_MAX_LENGTH (50) code points, the shortener's limit. */
export const fitsCredit = (credit: string): boolean => creditLength(credit) <= CREDIT_MAX_LENGTH;
