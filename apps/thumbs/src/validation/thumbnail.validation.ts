import { parsedBy } from '@pawlink/service-kit';
import { param, type ValidationChain } from 'express-validator';
import { orderCheckSegments, parseThumbnailId, parseThumbnailMd5, parseThumbnailType } from '../services/thumbnail-id.rules.js';

/*
 * Factories, not shared constants: `validate()` appends to the chains it is given, and the app is
 * built more than once per process in tests.
 */

/** `:id` → `id`: a ThumbnailTarget (1062 / 1063). Whether the board knows a post id is the service's question. */
const thumbnailId = (): ValidationChain => parsedBy(param('id'), parseThumbnailId);

/** `:type` → `type`: `gif` or `png` (1064). */
const thumbnailType = (): ValidationChain => parsedBy(param('type'), parseThumbnailType);

/** GET /:id → `{ id }`. */
export const thumbnailInfoValidation = (): ValidationChain[] => [thumbnailId()];

/** PUT /:id/:type → `{ id, type }`; the id is reported before the type. */
export const createThumbnailValidation = (): ValidationChain[] => [thumbnailId(), thumbnailType()];

/**
 * The segment of `/check/:first/:second` that plays `part`, in whichever order the client wrote
 * them, as a field of its own (Express 5 `req.params` is a plain object the sanitizer writes to).
 */
function checkSegment(part: 'md5' | 'type'): ValidationChain {
  return param(part).customSanitizer((_value: unknown, { req }) => {
    const params = (req.params ?? {}) as Record<string, unknown>;
    const segment = (name: string): string => {
      const value = params[name];
      return typeof value === 'string' ? value : '';
    };
    return orderCheckSegments(segment('first'), segment('second'))[part];
  });
}

/** GET /check/:first/:second → `{ md5, type }`: the MD5 is reported (1063) before the type (1064). */
export const checkThumbnailValidation = (): ValidationChain[] => [
  parsedBy(checkSegment('md5'), parseThumbnailMd5),
  parsedBy(checkSegment('type'), parseThumbnailType),
];
