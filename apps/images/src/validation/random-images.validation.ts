import { AMOUNT_MAX, AMOUNT_MIN } from '@pawlink/contracts';
import { fail, failWith } from '@pawlink/service-kit';
import { param, query, type ValidationChain } from 'express-validator';
import { isCategoryKey } from '../services/category-key.rules.js';
import { pickOptionsQueries, type PickOptionsInput } from './pick-options.validation.js';

/** What `GET /:category` reads once its chains have passed. */
export interface RandomImagesInput extends PickOptionsInput {
  category: string;
  amount: number;
  notes: 'disabled' | 'enabled';
}

/** A query value given once (a repeated parameter arrives as an array). */
const isSingle = (value: unknown): value is string => typeof value === 'string';
/** How a value is quoted in a message: its first 50 characters. */
const quoted = (value: unknown): string => `"${String(value).slice(0, 50)}"`;

/** An integer with an optional sign, surrounding whitespace allowed. */
const INTEGER = /^\s*[-+]?\d+\s*$/;

/** `amount` → a number from 1 to 5, 1 when absent; below → 1051, above → 1052, not one integer → 1057. */
export const amountQuery: ValidationChain = query('amount')
  .customSanitizer((value: unknown) => value ?? String(AMOUNT_MIN))
  .custom(isSingle)
  .withMessage(fail('INVALID_QUERY_VALUE', 'Invalid amount: give it once, as an integer from 1 to 5.'))
  .bail()
  .matches(INTEGER)
  .withMessage(failWith('INVALID_QUERY_VALUE', (value) => `Invalid amount: ${quoted(value)} is not an integer.`))
  .bail()
  .toInt()
  .custom((amount: number) => amount >= AMOUNT_MIN)
  .withMessage(fail('AMOUNT_TOO_LOW'))
  .bail()
  .custom((amount: number) => amount <= AMOUNT_MAX)
  .withMessage(fail('AMOUNT_TOO_HIGH'));

/** `notes` → 'disabled' only for the literal `notes=disabled` (given at least once); never fails. */
export const notesQuery: ValidationChain = query('notes').customSanitizer((value: unknown) =>
  value === 'disabled' || (Array.isArray(value) && value.includes('disabled')) ? 'disabled' : 'enabled',
);

/** The category key, however the path gave it: a key that cannot name a category is unknown (1030). */
const categoryKey = (chain: ValidationChain): ValidationChain =>
  chain.custom(isCategoryKey).withMessage(fail('CATEGORY_NOT_FOUND'));

/** `/a/b/c` as the key `a.b.c`; a trailing slash is tolerated as on the dotted form, other empty segments are not. */
function joinSegments(parts: unknown): string {
  const segments = Array.isArray(parts) ? parts.map(String) : [];
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  return segments.join('.');
}

/**
 * One segment that holds slashes (`/furry%2Fhug`, as clients built from the OpenAPI document send
 * a slashed category: they encode a path parameter whole) reads as the slashed form does.
 */
const segmentWithSlashes = (value: unknown): unknown =>
  typeof value === 'string' && value.includes('/') ? joinSegments(value.split('/')) : value;

/** GET /:category → RandomImagesInput; the query values are reported before the category. */
export const randomImagesValidation: ValidationChain[] = [
  amountQuery,
  ...pickOptionsQueries,
  notesQuery,
  categoryKey(param('category').customSanitizer(segmentWithSlashes)),
];

/**
 * GET /*category (`/furry/yiff/gay`) → RandomImagesInput: the segments Express gives as an array
 * become the key `category`, so one handler serves both forms.
 */
export const randomImagesBySegmentsValidation: ValidationChain[] = [
  amountQuery,
  ...pickOptionsQueries,
  notesQuery,
  categoryKey(param('category').customSanitizer(joinSegments)),
];
