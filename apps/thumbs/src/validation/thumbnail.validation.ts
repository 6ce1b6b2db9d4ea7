import { MD5_PATTERN, THUMBNAIL_TYPES } from '@pawlink/contracts';
import { fail, parsedBy } from '@pawlink/service-kit';
import { param, type ValidationChain } from 'express-validator';
import { orderCheckSegments, parseThumbnailId } from '../services/thumbnail-id.rules.js';

/** `:id` → `id`: a ThumbnailTarget (1062 / 1063). Whether the board knows a post id is the service's question. */
const thumbnailId = (): ValidationChain => parsedBy(param('id'), parseThumbnailId);

/** A type: `gif` or `png`, exactly (1064). */
const thumbnailType = (chain: ValidationChain): ValidationChain => chain.isIn(THUMBNAIL_TYPES).withMessage(fail('INVALID_TYPE'));

/** An MD5: 32 hex digits in any case, kept lower-case (1063). */
const thumbnailMd5 = (chain: ValidationChain): ValidationChain => chain.matches(MD5_PATTERN).withMessage(fail('INVALID_MD5')).bail().toLowerCase();

/** GET /:id → `{ id }`. */
export const thumbnailInfoValidation = [thumbnailId()];

/** PUT /:id/:type → `{ id, type }`; the id is reported before the type. */
export const createThumbnailValidation = [thumbnailId(), thumbnailType(param('type'))];

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
export const checkThumbnailValidation = [thumbnailMd5(checkSegment('md5')), thumbnailType(checkSegment('type'))];
