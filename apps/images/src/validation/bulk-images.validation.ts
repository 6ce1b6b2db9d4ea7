import { fail, failWith } from '@pawlink/service-kit';
import { body, type ValidationChain } from 'express-validator';
import type { BulkRequest } from '../services/bulk-images.service.js';
import { quotedKey } from '../services/category-key.rules.js';
import { pickOptionsQueries, type PickOptionsInput } from './pick-options.validation.js';

/** What `POST /bulk` reads once its chains have passed; the whole-body chain's value sits under the empty path. */
export interface BulkImagesInput extends PickOptionsInput {
  '': BulkRequest[];
}

const MAX_CATEGORIES = 100;

/** A JSON object (`{}`), not an array, null, or a form's prototype-less object. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/** The first category whose count is not a positive integer (a JSON number, not a string). */
const firstInvalidCount = (requests: Record<string, unknown>): string | undefined =>
  Object.entries(requests).find(
    ([, count]) => typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1,
  )?.[0];

/**
 * The body: a non-empty plain object of at most 100 category keys to positive integer counts,
 * as `BulkRequest`s in body order; anything else is 1054, the message saying what is wrong.
 */
const bulkBody: ValidationChain = body()
  .custom(isPlainObject)
  .withMessage(fail('BULK_INVALID_BODY'))
  .bail()
  .custom((requests: Record<string, unknown>) => Object.keys(requests).length > 0)
  .withMessage(fail('BULK_INVALID_BODY', 'Invalid bulk request body: no categories were given.'))
  .bail()
  .custom((requests: Record<string, unknown>) => Object.keys(requests).length <= MAX_CATEGORIES)
  .withMessage(
    fail('BULK_INVALID_BODY', `Invalid bulk request body: at most ${MAX_CATEGORIES} categories per request.`),
  )
  .bail()
  .custom((requests: Record<string, unknown>) => firstInvalidCount(requests) === undefined)
  .withMessage(
    failWith(
      'BULK_INVALID_BODY',
      (requests) =>
        `Invalid bulk request body: the count for ${quotedKey(firstInvalidCount(requests as Record<string, unknown>)!)} must be a positive integer.`,
    ),
  )
  .bail()
  .customSanitizer((requests: Record<string, number>): BulkRequest[] =>
    Object.entries(requests).map(([db, count]) => ({ db, count })),
  );

/** POST /bulk → BulkImagesInput: `?sizeLimit`, `?type` and `?exclude` as on the random endpoint (for every category), reported before the body. */
export const bulkImagesValidation: ValidationChain[] = [...pickOptionsQueries, bulkBody];
