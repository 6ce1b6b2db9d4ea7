import type { RequestHandler } from 'express';
import { orderCheckSegments } from '../domain/thumbnail-id.rules.js';

/**
 * `/check/:md5/:type` also takes its two segments the other way round (`/check/<type>/<md5>`, the
 * original's order). Before any field is checked, this puts each segment under the name it
 * belongs to (`orderCheckSegments`), so each field's parser reads only its own value.
 */
export const putCheckSegmentsInOrder: RequestHandler = (req, _res, next) => {
  const params = req.params as Record<string, unknown>;
  const text = (segment: unknown): string => (typeof segment === 'string' ? segment : '');
  const ordered = orderCheckSegments(text(params.md5), text(params.type));
  params.md5 = ordered.md5;
  params.type = ordered.type;
  next();
};
