import { apiKeyOf } from '@pawlink/auth';
import { ApiError, deferredBodyError } from '@pawlink/service-kit';
import type { Express, RequestHandler } from 'express';
import { bulkTotal, parseBulkBody } from '../domain/bulk-body.js';
import { parseSizeLimit } from '../domain/query-values.js';
import type { RouteContext } from './route-context.js';

/**
 * requireParsedBody, except that the shared JSON parser is strict (objects and arrays only): a body
 * that is valid JSON but a bare string or number is a wrong bulk body (1054), not malformed JSON (1026).
 */
const requireBulkBody: RequestHandler = (_req, res, next) => {
  const bodyError = deferredBodyError(res);
  const { type, body } = (bodyError?.cause ?? {}) as { type?: string; body?: unknown };
  if (type === 'entity.parse.failed' && typeof body === 'string') {
    try {
      JSON.parse(body);
      next(new ApiError('BULK_INVALID_BODY'));
      return;
    } catch {
      // really malformed: 1026
    }
  }
  next(bodyError);
};

/** POST /bulk — many categories at once, for keys with `images_bulk`, up to the key's bulk limit. */
export function registerBulkRoutes(router: Express, { service, requireApiKey, rateLimit }: RouteContext): void {
  router.post('/bulk', requireApiKey('images_bulk'), rateLimit('images.bulk'), requireBulkBody, async (req, res) => {
    const sizeLimit = parseSizeLimit(req.query.sizeLimit);
    const requests = parseBulkBody(req.body);
    const total = bulkTotal(requests);
    const limit = apiKeyOf(res)?.bulkLimit ?? 0;
    if (total > limit) {
      throw new ApiError('BULK_OVER_LIMIT', { message: `Bulk request total is above your limit: you asked for ${total} images and your limit is ${limit}.` });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ success: true, data: await service.bulk(requests, sizeLimit) });
  });

  // Answered here because `GET /:category` also matches `/bulk`: the shared 405 handler would
  // read that route and list GET in `Allow`.
  const allow = 'OPTIONS, POST';
  router.all('/bulk', (req, res) => {
    res.setHeader('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    throw new ApiError('METHOD_NOT_ALLOWED');
  });
}
