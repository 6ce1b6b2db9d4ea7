/** Dotted category keys as paths and bulk bodies may name them: `furry.yiff.gay`. */
const CATEGORY_KEY = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const CATEGORY_KEY_MAX_LENGTH = 100;
/** Category keys quoted in messages are cut to this length. */
const QUOTED_KEY_MAX = 100;

/**
 * Whether `value` could name a category at all. Anything else is unknown without asking MySQL,
 * and never enters the in-process category cache.
 */
export const isCategoryKey = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= CATEGORY_KEY_MAX_LENGTH && CATEGORY_KEY.test(value);

/** A category key as an error message quotes it: in double quotes, cut to 100 characters. */
export const quotedKey = (db: string): string => `"${db.slice(0, QUOTED_KEY_MAX)}"`;
