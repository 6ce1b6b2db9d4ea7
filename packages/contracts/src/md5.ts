/** An MD5 as 32 hex digits, any case (docs/api.md §4: case-insensitive, stored lower-case). */
export const MD5_PATTERN = /^[0-9a-fA-F]{32}$/;

/** The lower-case form of an MD5, or null for anything that is not one. */
export const normaliseMd5 = (value: unknown): string | null =>
  typeof value === 'string' && MD5_PATTERN.test(value) ? value.toLowerCase() : null;
