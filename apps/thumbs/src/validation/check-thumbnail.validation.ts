import { MD5_PATTERN, THUMBNAIL_TYPES } from '@pawlink/contracts';
import { fail } from '@pawlink/service-kit';
import { param, type ValidationChain } from 'express-validator';
import { orderCheckSegments } from '../services/thumbnail-id.rules.js';

/** An MD5: 32 hex digits in any case, kept lower-case (1063). */
const thumbnailMd5 = (chain: ValidationChain): ValidationChain =>
  chain.matches(MD5_PATTERN).withMessage(fail('INVALID_MD5')).bail().toLowerCase();

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

/**
 * GET /check/:md5/:type (either order) → `{ md5, type }`: the MD5 is reported (1063) before the
 * type, which is exactly `gif`, `png`, `webp` or `mp4` (1064).
 */
export const checkThumbnailValidation = [
  thumbnailMd5(orderedCheckSegments()),
  param('type').isIn(THUMBNAIL_TYPES).withMessage(fail('INVALID_TYPE')),
];
