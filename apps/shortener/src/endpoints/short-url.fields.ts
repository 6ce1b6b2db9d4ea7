/*
 * The request fields of the shortener's endpoints (docs/api.md §2), each written once: what the
 * document says of it, the contract codes it answers and its parser, which checks and converts the
 * value with the domain's rules. Each endpoint lists the fields it takes, in the order they are
 * checked (the first that fails is answered).
 */
import {
  BULK_CREATE_MAX_LINKS,
  creditSchema,
  CREDIT_NOT_TEXT,
  DEFAULT_CREDIT,
  fitsCredit,
  LINKS_QUERY_MAX_LENGTH,
  MAX_VISITS_LIMIT,
  QR_FORMATS,
  s,
  SHORT_CODE_MAX_LENGTH,
  SHORT_CODE_PATTERN,
  shortCodeSchema,
  TAG_MAX_LENGTH,
  TAGS_MAX,
  REDIRECT_RULES_MAX,
  RedirectRuleSchema,
  LINK_PASSWORD_MAX_LENGTH,
  LINK_PASSWORD_MIN_LENGTH,
  targetUrlSchema,
  URL_MAX_LENGTH,
  type QrFormat,
} from '@pawlink/contracts';
import { ApiError, field, inBody, isFormBody, optional, type Field } from '@pawlink/service-kit';
import type { ShortenerConfig } from '../config.js';
import { parseExpiresAt, parseMaxVisits } from '../domain/expiry.rules.js';
import { decodeLinksCursor, type OwnerPosition } from '../domain/links-cursor.rules.js';
import { isWellFormedCode } from '../domain/short-code.rules.js';
import { parseLinkPassword } from '../domain/link-password.rules.js';
import { parseRules, type RedirectRule } from '../domain/redirect-rules.rules.js';
import { parseTagFilter, parseTags } from '../domain/tags.rules.js';
import { normaliseTargetUrl } from '../domain/target-url.rules.js';

/** How a value is quoted in a message: its first 50 characters. */
const quoted = (value: unknown): string => JSON.stringify(String(value).slice(0, 50));

/**
 * A string's length as express-validator's `isLength` counts it (a surrogate pair and a character
 * with its presentation selector count once), so a limit answers as it always did.
 */
const lengthOf = (text: string): number =>
  text.length -
  (text.match(/[^\uFE0F\uFE0E][\uFE0F\uFE0E]/g)?.length ?? 0) -
  (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

/* ---------- path ---------- */

const CODE_PARAMETER = 'The short code (A-Z, a-z, 0-9 and -; case-sensitive).';

/** A code named in the path or the alias body: no entry can have a malformed one (404 1075). */
export const existingCode = (description = CODE_PARAMETER): Field<string> =>
  field({
    schema: s.string(),
    description,
    codes: ['SHORT_URL_NOT_FOUND'],
    parse: (value) => {
      if (typeof value !== 'string' || !isWellFormedCode(value)) throw new ApiError('SHORT_URL_NOT_FOUND');
      return value;
    },
  });

/**
 * A code in a public path (redirect, preview): browsers follow these, so a malformed code is an
 * unknown one (null: the page answers "unknown" without a lookup), never a JSON error.
 */
export const publicCode = (): Field<string | null> =>
  field({
    schema: s.string(),
    description: CODE_PARAMETER,
    codes: [],
    parse: (value) => (typeof value === 'string' && isWellFormedCode(value) ? value : null),
  });

/* ---------- query ---------- */

/** The values of `editable`; anything else, an empty value or a repeated parameter is 1057. */
const EDITABLE = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

/** `?editable`: `true`/`1` or `false`/`0`; editable when absent. */
export const editable = (description: string): Field<boolean> =>
  field({
    schema: s.oneOfValues(['true', 'false', '1', '0']),
    description,
    codes: ['INVALID_QUERY_VALUE'],
    parse: (raw) => {
      const value: unknown = raw ?? 'true';
      const parsed = typeof value === 'string' ? EDITABLE.get(value) : undefined;
      if (parsed === undefined)
        throw new ApiError('INVALID_QUERY_VALUE', {
          message: `Invalid editable: ${Array.isArray(value) ? 'given more than once' : quoted(value)}; give it once, as true, false, 1 or 0.`,
        });
      return parsed;
    },
  });

/** A query value given once (a repeated parameter arrives as an array). */
const isSingle = (value: unknown): value is string => typeof value === 'string';

/**
 * `name` → a whole number from `min` to `max`, `fallback` when absent: plain decimal digits, given
 * once; anything else (empty, signed, fractional, repeated, out of range) is 400 1057.
 */
export function wholeNumber(
  name: string,
  { min, max, fallback, description }: { min: number; max: number; fallback: number; description: string },
): Field<number> {
  const expected = `give it once, as a whole number from ${min} to ${max}`;
  return field({
    schema: s.integer({ minimum: min, maximum: max, default: fallback }),
    description,
    codes: ['INVALID_QUERY_VALUE'],
    parse: (raw) => {
      const value: unknown = raw ?? String(fallback);
      if (!isSingle(value)) throw new ApiError('INVALID_QUERY_VALUE', { message: `Invalid ${name}: ${expected}.` });
      if (!/^[0-9]{1,9}$/.test(value))
        throw new ApiError('INVALID_QUERY_VALUE', { message: `Invalid ${name}: ${quoted(value)}; ${expected}.` });
      const n = Number.parseInt(value, 10);
      if (n < min || n > max)
        throw new ApiError('INVALID_QUERY_VALUE', {
          message: `Invalid ${name}: ${quoted(value)} is out of range; ${expected}.`,
        });
      return n;
    },
  });
}

/** `?format` of a QR code: svg (default) or png. */
export const qrFormat = (): Field<QrFormat> =>
  field({
    schema: s.oneOfValues(QR_FORMATS, { default: 'svg' }),
    description: '`svg` (default) or `png`.',
    codes: ['INVALID_QUERY_VALUE'],
    parse: (raw) => {
      const value: unknown = raw ?? 'svg';
      const format = QR_FORMATS.find((known) => known === value);
      if (format === undefined)
        throw new ApiError('INVALID_QUERY_VALUE', {
          message: `Invalid format: ${isSingle(value) ? quoted(value) : 'given more than once'}; give it once, as svg or png.`,
        });
      return format;
    },
  });

/** `?cursor` of `/links`: a `next` value unchanged, decoded to the position a page starts after. */
export const linksCursor = (): Field<OwnerPosition> =>
  field({
    schema: s.string(),
    description: 'The `next` of the previous page, unchanged (opaque).',
    codes: ['INVALID_QUERY_VALUE'],
    parse: (value) => {
      if (!isSingle(value))
        throw new ApiError('INVALID_QUERY_VALUE', {
          message: 'Invalid cursor: give it once, as the `next` value of the previous page.',
        });
      return decodeLinksCursor(value);
    },
  });

/** `?q` of `/links`: 1 to 200 characters, given once. */
export const linksQuery = (): Field<string> =>
  field({
    schema: s.string({ minLength: 1, maxLength: LINKS_QUERY_MAX_LENGTH }),
    description: 'Only entries whose code, url or credit contains this text, ignoring case.',
    codes: ['INVALID_QUERY_VALUE'],
    parse: (value) => {
      if (!isSingle(value) || lengthOf(value) < 1 || lengthOf(value) > LINKS_QUERY_MAX_LENGTH)
        throw new ApiError('INVALID_QUERY_VALUE', {
          message: `Invalid q: give it once, as 1 to ${LINKS_QUERY_MAX_LENGTH} characters.`,
        });
      return value;
    },
  });

/** `?tag` of `/links`, repeatable: only links carrying every tag given. */
export const tagFilter = (): Field<string[]> =>
  field({
    // An array: OpenAPI's default for a query parameter (form, exploded) is the repeated `tag=a&tag=b`.
    schema: s.array(s.string({ minLength: 1, maxLength: TAG_MAX_LENGTH, pattern: '^[A-Za-z0-9-]+$' }), {
      minItems: 1,
      maxItems: TAGS_MAX,
    }),
    description: `Only entries carrying this tag (any case); repeat it (\`tag=a&tag=b\`, up to ${TAGS_MAX}) for entries carrying all of them.`,
    codes: ['INVALID_QUERY_VALUE'],
    parse: (value) => parseTagFilter(value),
  });

/* ---------- body ---------- */

/**
 * A custom code at creation; absent or null means a random one: 1071 for a non-string or an empty
 * one, 1070 for one over 50 characters, 1071 for other characters.
 */
export const customCode = (): Field<string> =>
  field({
    schema: s.nullable(
      shortCodeSchema({
        minLength: 1,
        description: 'A custom code; absent or null for a random one (an empty string is 1071).',
      }),
    ),
    codes: ['INVALID_CODE', 'CODE_TOO_LONG'],
    parse: (value) => {
      if (typeof value !== 'string')
        throw new ApiError('INVALID_CODE', { message: 'The provided code must be a string (A-Z, a-z, 0-9 and -).' });
      if (value === '')
        throw new ApiError('INVALID_CODE', {
          message: 'The provided code is empty: leave it out, or send null, for a random code.',
        });
      if (lengthOf(value) > SHORT_CODE_MAX_LENGTH) throw new ApiError('CODE_TOO_LONG');
      if (!SHORT_CODE_PATTERN.test(value)) throw new ApiError('INVALID_CODE');
      return value;
    },
  });

/**
 * The target URL: a non-empty string of at most 2048 characters that the URL rules accept (1073),
 * kept normalised; SHORTENER_PRIVATE_TARGET_PREFIXES from the app's settings.
 */
export const targetUrl = (): Field<string, ShortenerConfig> =>
  field({
    schema: targetUrlSchema({ description: 'Absolute http, https or ftp URL to a public host.' }),
    codes: ['INVALID_URL'],
    parse: (value, { config }) => {
      if (typeof value !== 'string' || value === '')
        throw new ApiError('INVALID_URL', { message: 'The provided url is invalid: url must be a non-empty string.' });
      if (lengthOf(value) > URL_MAX_LENGTH)
        throw new ApiError('INVALID_URL', {
          message: `The provided url is invalid: at most ${URL_MAX_LENGTH} characters.`,
        });
      return normaliseTargetUrl(value, config.shortener.privateTargetPrefixes);
    },
  });

/** A credit: plain text of at most 50 characters after trimming (1074); blank and null mean the default, "Unknown". */
export const credit = (): Field<string> =>
  field({
    schema: s.nullable(creditSchema({ description: 'Default "Unknown".' })),
    codes: ['CREDIT_TOO_LONG'],
    parse: (raw) => {
      const value: unknown = raw === null ? '' : raw;
      if (typeof value !== 'string')
        throw new ApiError('CREDIT_TOO_LONG', {
          message: 'The provided credit must be a string of at most 50 characters.',
        });
      const trimmed = value.trim();
      if (!fitsCredit(trimmed)) throw new ApiError('CREDIT_TOO_LONG');
      if (CREDIT_NOT_TEXT.test(trimmed))
        throw new ApiError('CREDIT_TOO_LONG', {
          message:
            'The provided credit must be plain text: no control characters, bidirectional controls or broken unicode.',
        });
      return trimmed === '' ? DEFAULT_CREDIT : trimmed;
    },
  });

/** `expiresAt`: an ISO 8601 date-time with a zone, in the future (1081); null means none (on PATCH: clear it). */
export const expiresAt = (): Field<Date | null> =>
  field({
    schema: s.nullable(
      s.dateTime({ description: 'ISO 8601 date-time with a zone, in the future; null clears it (PATCH).' }),
    ),
    codes: ['INVALID_EXPIRES_AT'],
    parse: (value) => (value === null ? null : parseExpiresAt(value, new Date())),
  });

/**
 * `maxVisits`: a whole number from 1 to 2^31-1 (1082), a JSON number (a string is refused, never
 * read as one) or digits in a form body; null means unlimited (on PATCH: clear it).
 */
export const maxVisits = (): Field<number | null> =>
  field({
    schema: s.opaque({
      oneOf: [
        { type: 'integer', minimum: 1, maximum: MAX_VISITS_LIMIT },
        { type: 'string', pattern: '^[0-9]+$' },
        { type: 'null' },
      ],
      description: `A whole number from 1 to ${MAX_VISITS_LIMIT}: a JSON number (a string is 1082), or digits in a form body; null clears it (PATCH).`,
    }),
    codes: ['INVALID_MAX_VISITS'],
    parse: (value, { headers }) => (value === null ? null : parseMaxVisits(value, { digits: isFormBody(headers) })),
  });

/** `tags`: up to 10, each 1–32 of a-z, 0-9 and - (upper case is stored lower-case), 1087 otherwise; `[]` removes them (PATCH). */
export const tags = (): Field<string[]> =>
  field({
    schema: s.array(s.string({ minLength: 1, maxLength: TAG_MAX_LENGTH, pattern: '^[A-Za-z0-9-]+$' }), {
      maxItems: TAGS_MAX,
      description: `Up to ${TAGS_MAX} tags, each 1 to ${TAG_MAX_LENGTH} characters of a-z, 0-9 and - (stored lower-case, each once); [] removes them (PATCH).`,
    }),
    codes: ['INVALID_TAGS'],
    parse: (value) => parseTags(value),
  });

/** `password`: 8 to 128 characters (1088), stored as a scrypt hash and never returned; null removes it (PATCH). */
export const linkPassword = (): Field<string | null> =>
  field({
    schema: s.nullable(
      s.string({
        minLength: LINK_PASSWORD_MIN_LENGTH,
        maxLength: LINK_PASSWORD_MAX_LENGTH,
        description: `Visitors must type it to be redirected (${LINK_PASSWORD_MIN_LENGTH} to ${LINK_PASSWORD_MAX_LENGTH} characters); never returned. null removes it (PATCH).`,
      }),
    ),
    codes: ['INVALID_PASSWORD'],
    parse: (value) => parseLinkPassword(value),
  });

/**
 * `rules`: at most 20 `{when, url, forwardQuery?}`, each url checked as `url` is (SHORTENER_PRIVATE_TARGET_PREFIXES
 * included); anything else is 400 1091 naming the rule and field; null or [] means none (PATCH: remove them).
 */
export const redirectRules = (): Field<RedirectRule[], ShortenerConfig> =>
  field({
    schema: s.nullable(
      s.array(RedirectRuleSchema, {
        maxItems: REDIRECT_RULES_MAX,
        description: `Up to ${REDIRECT_RULES_MAX} rules, in order: the first whose every condition holds sends the visit to its url instead of \`url\`. null or [] removes them (PATCH).`,
      }),
    ),
    codes: ['INVALID_RULES'],
    parse: (value, { config }) =>
      parseRules(value, (url) => normaliseTargetUrl(url, config.shortener.privateTargetPrefixes)),
  });

/** The management code of PATCH and DELETE: a non-empty string, else 1076. */
export const managementCode = (): Field<string> =>
  field({
    schema: s.string({ minLength: 1, description: 'The secret given once at creation.' }),
    codes: ['MANAGEMENT_CODE_REQUIRED'],
    parse: (value) => {
      if (typeof value !== 'string' || value === '') throw new ApiError('MANAGEMENT_CODE_REQUIRED');
      return value;
    },
  });

/**
 * The body of one create, {code?, url, credit?, expiresAt?, maxVisits?}, in the order it is
 * checked: POST /create's body and each item of POST /create/bulk.
 */
export const createShortUrlBody = {
  code: inBody(optional(customCode(), { nullMeansAbsent: true })),
  url: inBody(targetUrl()),
  credit: inBody(optional(credit())),
  expiresAt: inBody(optional(expiresAt())),
  maxVisits: inBody(optional(maxVisits())),
  tags: inBody(optional(tags())),
  password: inBody(optional(linkPassword())),
  rules: inBody(optional(redirectRules())),
};

/** `links` of a bulk create: 1 to 100 items, each checked afterwards as one create's body (1084 otherwise). */
export const bulkLinks = (itemSchema: Record<string, unknown>): Field<unknown[]> =>
  field({
    schema: s.array(s.opaque(itemSchema), { minItems: 1, maxItems: BULK_CREATE_MAX_LINKS }),
    codes: ['BULK_CREATE_INVALID'],
    parse: (value) => {
      if (!Array.isArray(value) || value.length < 1 || value.length > BULK_CREATE_MAX_LINKS)
        throw new ApiError('BULK_CREATE_INVALID', {
          message: `Invalid bulk create: the body must be {links: [...]} with 1 to ${BULK_CREATE_MAX_LINKS} items.`,
        });
      const items: unknown[] = value;
      return items;
    },
  });
