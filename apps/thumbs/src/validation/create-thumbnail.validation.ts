import { THUMBNAIL_TYPES } from '@pawlink/contracts';
import { fail, parsedBy } from '@pawlink/service-kit';
import { param } from 'express-validator';
import { parseThumbnailId } from '../services/thumbnail-id.rules.js';

/**
 * PUT /:id/:type → `{ id, type }`: `:id` a ThumbnailTarget (1062 / 1063; whether the board knows a
 * post id is the service's question), `:type` exactly `gif`, `png`, `webp` or `mp4` (1064). The id is
 * reported before the type.
 */
export const createThumbnailValidation = [parsedBy(param('id'), parseThumbnailId), param('type').isIn(THUMBNAIL_TYPES).withMessage(fail('INVALID_TYPE'))];
