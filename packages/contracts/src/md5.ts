import { string, type Schema } from './schema.js';

/** An MD5 as stored and answered: 32 lower-case hex digits, as a regular expression's body (no anchors). */
export const MD5_LOWER_DIGITS = '[0-9a-f]{32}';
/** An MD5 as stored and answered (docs/api.md §4); requests may use either case (MD5_PATTERN). */
export const MD5_LOWER_PATTERN = new RegExp(`^${MD5_LOWER_DIGITS}$`);
/** An MD5 as 32 hex digits, any case (docs/api.md §4: case-insensitive, stored lower-case). */
export const MD5_PATTERN = /^[0-9a-fA-F]{32}$/;

/** The lower-case form of an MD5, or null for anything that is not one. */
export const normaliseMd5 = (value: unknown): string | null =>
  typeof value === 'string' && MD5_PATTERN.test(value) ? value.toLowerCase() : null;

/** An MD5 in a document, as answered. */
export const md5Schema = (keywords: Record<string, unknown> = {}): Schema<string> =>
  string({ pattern: MD5_LOWER_PATTERN.source, ...keywords });
