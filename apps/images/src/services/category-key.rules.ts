/** Dotted category keys as paths and bulk bodies may name them: `furry.yiff.gay`. */
const CATEGORY_KEY = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const CATEGORY_KEY_MAX_LENGTH = 100;

/**
 * Whether `value` could name a category at all. Anything else is unknown without asking MySQL,
 * and never enters the in-process category cache.
 */
export const isCategoryKey = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= CATEGORY_KEY_MAX_LENGTH && CATEGORY_KEY.test(value);
