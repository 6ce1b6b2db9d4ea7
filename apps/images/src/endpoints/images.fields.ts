/*
 * The request fields of the images endpoints (docs/api.md §3) other than the pick options: what
 * the document says of each, the contract codes it answers and its parser (the domain's rules).
 */
import { AMOUNT_MAX, AMOUNT_MIN, MD5_PATTERN, normaliseMd5, s } from '@pawlink/contracts';
import { ApiError, field, inBody, inPath, inQuery, WHOLE_BODY } from '@pawlink/service-kit';
import { isCategoryKey, quotedKey } from '../domain/category-key.rules.js';
import type { BulkRequest } from '../services/bulk-images.service.js';
import { invalidQueryValue, isSingle, quoted } from './pick-options.fields.js';

/** An integer with an optional sign, surrounding whitespace allowed. */
const INTEGER = /^\s*[-+]?\d+\s*$/;

/** `amount` → a number from 1 to 5, 1 when absent; below → 1051, above → 1052, not one integer → 1057. */
export const amount = () =>
  inQuery(
    field({
      // An integer, as clients should send it (a generated client types it as a number); the
      // server also reads a sign and surrounding spaces (` 2`), which the schema leaves out.
      schema: s.integer({ default: AMOUNT_MIN }),
      description: `How many images, ${AMOUNT_MIN} to ${AMOUNT_MAX} (default ${AMOUNT_MIN}); below is 400 1051, above 400 1052.`,
      codes: ['AMOUNT_TOO_LOW', 'AMOUNT_TOO_HIGH', 'INVALID_QUERY_VALUE'],
      parse: (value): number => {
        const text = value ?? String(AMOUNT_MIN);
        if (!isSingle(text)) throw invalidQueryValue('Invalid amount: give it once, as an integer from 1 to 5.');
        if (!INTEGER.test(text)) throw invalidQueryValue(`Invalid amount: ${quoted(text)} is not an integer.`);
        const count = Number.parseInt(text, 10);
        if (count < AMOUNT_MIN) throw new ApiError('AMOUNT_TOO_LOW');
        if (count > AMOUNT_MAX) throw new ApiError('AMOUNT_TOO_HIGH');
        return count;
      },
    }),
  );

/** `notes` → 'disabled' only for the literal `notes=disabled` (given at least once); never fails. */
export const notes = () =>
  inQuery(
    field({
      schema: s.oneOfValues(['disabled']),
      description: '`disabled` for an empty `notes` list.',
      codes: [],
      parse: (value): 'disabled' | 'enabled' =>
        value === 'disabled' || (Array.isArray(value) && value.includes('disabled')) ? 'disabled' : 'enabled',
    }),
  );

/** `/a/b/c` as the key `a.b.c`; a trailing slash is tolerated as on the dotted form, other empty segments are not. */
function joinSegments(parts: unknown): string {
  const segments = Array.isArray(parts) ? parts.map(String) : [];
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  return segments.join('.');
}

/** A key that cannot name a category is unknown (1030), without asking MySQL. */
function categoryKeyOf(key: unknown): string {
  if (!isCategoryKey(key)) throw new ApiError('CATEGORY_NOT_FOUND');
  return key;
}

/**
 * The category of a random pick, however the path gave it: dotted (`/furry.hug`), slashed (the
 * spanning path's segments, an array), or one segment holding slashes (`/furry%2Fhug`, as clients
 * built from the OpenAPI document send a slashed category: they encode a path parameter whole).
 */
export const pickedCategory = () =>
  inPath(
    field({
      schema: s.string(),
      description:
        'The category key: `furry.hug`, or `furry/hug` (sent as is, or as one encoded segment `furry%2Fhug`, as generated clients send a path parameter).',
      codes: ['CATEGORY_NOT_FOUND'],
      parse: (value): string =>
        categoryKeyOf(
          Array.isArray(value)
            ? joinSegments(value)
            : typeof value === 'string' && value.includes('/')
              ? joinSegments(value.split('/'))
              : value,
        ),
    }),
  );

/** A category named in the path, dotted (`GET /categories/:db`): 1030 when it cannot name one. */
export const categoryKey = () =>
  inPath(
    field({
      schema: s.string(),
      description: 'The category key, dotted: `furry.hug`.',
      codes: ['CATEGORY_NOT_FOUND'],
      parse: categoryKeyOf,
    }),
  );

/** An image id in the path → the lower-case MD5; an id that is no MD5 names no image (1040); any case is accepted. */
export const imageId = () =>
  inPath(
    field({
      schema: s.string({ pattern: MD5_PATTERN.source }),
      description: 'The MD5 (any case).',
      codes: ['IMAGE_NOT_FOUND'],
      parse: (value): string => {
        const id = typeof value === 'string' && MD5_PATTERN.test(value) ? normaliseMd5(value) : null;
        if (id === null) throw new ApiError('IMAGE_NOT_FOUND');
        return id;
      },
    }),
  );

const MAX_CATEGORIES = 100;

/** A JSON object (`{}`), not an array, null, or a form's prototype-less object. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

const invalidBulkBody = (message: string): ApiError => new ApiError('BULK_INVALID_BODY', { message });

/**
 * The body of POST /bulk, whole: a non-empty plain object of at most 100 category keys to positive
 * integer counts, as `BulkRequest`s in body order; anything else is 1054, the message saying what is wrong.
 */
export const bulkBody = () => ({
  [WHOLE_BODY]: inBody(
    field({
      schema: s.record(s.integer({ minimum: 1 }), { minProperties: 1, maxProperties: MAX_CATEGORIES }),
      codes: ['BULK_INVALID_BODY'],
      parse: (requests): BulkRequest[] => {
        if (!isPlainObject(requests)) throw new ApiError('BULK_INVALID_BODY');
        const entries = Object.entries(requests);
        if (entries.length === 0) throw invalidBulkBody('Invalid bulk request body: no categories were given.');
        if (entries.length > MAX_CATEGORIES)
          throw invalidBulkBody(`Invalid bulk request body: at most ${MAX_CATEGORIES} categories per request.`);
        const wanted: BulkRequest[] = [];
        for (const [db, count] of entries) {
          if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1)
            throw invalidBulkBody(
              `Invalid bulk request body: the count for ${quotedKey(db)} must be a positive integer.`,
            );
          wanted.push({ db, count });
        }
        return wanted;
      },
    }),
  ),
});
