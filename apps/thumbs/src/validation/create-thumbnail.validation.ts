import { parseCallbackUrl, THUMBNAIL_TYPES } from '@pawlink/contracts';
import { ApiError, fail, onlyBodyFields, parsedBy } from '@pawlink/service-kit';
import { param, query } from 'express-validator';
import { parseThumbnailId } from '../services/thumbnail-id.rules.js';

/** `?callbackURL=`: absent, or one http(s) URL of at most 2048 characters (else 422 1085); its address is the service's question. */
function parseCallbackQuery(value: unknown): URL | undefined {
  if (value === undefined) return undefined;
  const url = parseCallbackUrl(value);
  if (!url) throw new ApiError('CALLBACK_URL_REFUSED');
  return url;
}

/**
 * PUT /:id/:type → `{ id, type, callbackURL? }`: no body field (1017), `:id` a ThumbnailTarget (1062 / 1063; whether the
 * board knows a post id is the service's question), `:type` exactly `gif`, `png`, `webp` or `mp4`
 * (1064), then the callback URL's form (1085). The id is reported before the type.
 */
export const createThumbnailValidation = [
  // PUT takes no body fields: a `callbackURL` sent in the body would otherwise be ignored (it is a query parameter).
  onlyBodyFields('PUT /:id/:type', []),
  parsedBy(param('id'), parseThumbnailId),
  param('type').isIn(THUMBNAIL_TYPES).withMessage(fail('INVALID_TYPE')),
  parsedBy(query('callbackURL'), parseCallbackQuery),
];
