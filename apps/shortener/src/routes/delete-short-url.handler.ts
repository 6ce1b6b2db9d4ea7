import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';
import { bodyOf } from './request-body.js';

/** DELETE /:code {managementCode}: 204. */
export function deleteShortUrlHandler(service: ShortUrlService): RequestHandler<{ code: string }> {
  return async (req, res) => {
    await service.remove(req.params.code, bodyOf(req).managementCode);
    res.status(204).end();
  };
}

/** POST /delete {code, managementCode}: the compatibility alias existing clients use. */
export function deleteShortUrlAliasHandler(service: ShortUrlService): RequestHandler {
  return async (req, res) => {
    const body = bodyOf(req);
    await service.remove(typeof body.code === 'string' ? body.code : '', body.managementCode);
    res.status(204).end();
  };
}
