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
 * `/check/:md5/:type` also takes the two segments the other way round: the first chain puts both
 * where they belong (`orderCheckSegments`) before either is checked (Express 5 `req.params` is a
 * plain object the sanitizer writes to; chains run in order).
 */
const orderedCheckSegments = (): ValidationChain =>
  param('md5').customSanitizer((value: unknown, { req }) => {
    const params = (req.params ?? {}) as Record<string, unknown>;
    const text = (segment: unknown): string => (typeof segment === 'string' ? segment : '');
    const ordered = orderCheckSegments(text(value), text(params.type));
    params.type = ordered.type;
    return ordered.md5;
  });

/** GET /check/:md5/:type (either order) → `{ md5, type }`: the MD5 is reported (1063) before the type (1064). */
export const checkThumbnailValidation = [thumbnailMd5(orderedCheckSegments()), thumbnailType(param('type'))];
