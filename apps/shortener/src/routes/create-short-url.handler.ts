import type { CreateShortUrlResponse } from '@pawlink/contracts';
import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';
import { bodyOf, queryFlag } from './request-body.js';

/** POST /create `?editable=true` {url, code?, credit?}: 201 new, 200 when the url already had an entry. */
export function createShortUrlHandler(service: ShortUrlService): RequestHandler {
  return async (req, res) => {
    const body = bodyOf(req);
    const result = await service.create({ url: body.url, code: body.code, credit: body.credit, editable: queryFlag(req, 'editable') });
    const response: CreateShortUrlResponse = { success: true, data: { ...result.record, managementCode: result.managementCode } };
    res.status(result.created ? 201 : 200).json(response);
  };
}
