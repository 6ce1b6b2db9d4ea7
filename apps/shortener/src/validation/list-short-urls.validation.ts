import { LINKS_PAGE_DEFAULT, LINKS_PAGE_MAX, LINKS_QUERY_MAX_LENGTH } from '@pawlink/contracts';
import { fail, parsedBy } from '@pawlink/service-kit';
import { query } from 'express-validator';
import type { OwnerPosition } from '../repositories/short-url.repository.js';
import { decodeLinksCursor } from '../services/links-cursor.rules.js';
import { isSingle, wholeNumberQuery } from './query-values.validation.js';

export interface ListShortUrlsInput {
  limit: number;
  cursor?: OwnerPosition;
  q?: string;
}

const badCursor = fail(
  'INVALID_QUERY_VALUE',
  'Invalid cursor: give it once, as the `next` value of the previous page.',
);
const badQ = fail('INVALID_QUERY_VALUE', `Invalid q: give it once, as 1 to ${LINKS_QUERY_MAX_LENGTH} characters.`);

/**
 * GET /links `?limit&cursor&q`, checked in that order, each 400 1057 when bad: `limit` 1–100
 * (default 25), `cursor` a `next` value unchanged (decoded to a position), `q` 1–200 characters
 * (a bounded substring search).
 */
export const listShortUrlsValidation = [
  wholeNumberQuery('limit', { min: 1, max: LINKS_PAGE_MAX, fallback: LINKS_PAGE_DEFAULT }),
  parsedBy(query('cursor').optional().custom(isSingle).withMessage(badCursor).bail(), (value) =>
    decodeLinksCursor(value as string),
  ),
  query('q')
    .optional()
    .custom(isSingle)
    .withMessage(badQ)
    .bail()
    .isLength({ min: 1, max: LINKS_QUERY_MAX_LENGTH })
    .withMessage(badQ),
];
