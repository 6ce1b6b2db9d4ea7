/*
 * The patterns several layers check, each declared once (docs/adr/0016): the services' rules, the
 * request fields and the OpenAPI documents read them from here, never from a copy.
 */
import { CREDIT_MAX_LENGTH } from './credit-text.js';
import { string, type Schema } from './schema.js';

export const SHORT_CODE_MAX_LENGTH = 50;
/** The characters of a short code, as a character class body. */
const SHORT_CODE_CHARACTERS = 'A-Za-z0-9-';
/** A string of short-code characters, any length (the documents pair it with SHORT_CODE_MAX_LENGTH). */
export const SHORT_CODE_PATTERN = new RegExp(`^[${SHORT_CODE_CHARACTERS}]+$`);
/** Any string that could be a stored code: short-code characters, 1 to 50 of them; nothing else can exist. */
export const SHORT_CODE = new RegExp(`^[${SHORT_CODE_CHARACTERS}]{1,${SHORT_CODE_MAX_LENGTH}}$`);
/** A short code in a document: its characters and its length. */
export const shortCodeSchema = (keywords: Record<string, unknown> = {}): Schema<string> =>
  string({ pattern: SHORT_CODE_PATTERN.source, maxLength: SHORT_CODE_MAX_LENGTH, ...keywords });

/* The MD5 patterns (MD5_PATTERN, MD5_LOWER_PATTERN, md5Schema) are in md5.ts. */

/** The longest target URL, before and after normalisation. */
export const URL_MAX_LENGTH = 2048;
/** A target URL in a document. */
export const targetUrlSchema = (keywords: Record<string, unknown> = {}): Schema<string> =>
  string({ maxLength: URL_MAX_LENGTH, ...keywords });

/** A credit in a document (the rule itself: `fitsCredit` and CREDIT_NOT_TEXT in credit-text.ts). */
export const creditSchema = (keywords: Record<string, unknown> = {}): Schema<string> =>
  string({ maxLength: CREDIT_MAX_LENGTH, ...keywords });
