import { parsedBy } from '@pawlink/service-kit';
import { param } from 'express-validator';
import { parseThumbnailId } from '../services/thumbnail-id.rules.js';

/** GET /:id → `{ id }`: a ThumbnailTarget (1062 / 1063). Whether the board knows a post id is the service's question. */
export const getThumbnailInfoValidation = [parsedBy(param('id'), parseThumbnailId)];
