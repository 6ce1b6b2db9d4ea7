import type { CreateShortUrlResponse } from '@pawlink/contracts';
import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';
import { bodyOf, editableFlag } from './request-body.js';

/** POST /create `[?editable=false]` {url, code?, credit?}: 201 new, 200 when a non-editable create finds the url's shared entry. */
export function createShortUrlHandler(service: ShortUrlService): RequestHandler {
  return async (req, res) => {
    const body = bodyOf(req);
    const result = await service.create({ url: body.url, code: body.code, credit: body.credit, editable: editableFlag(req) });
    const response: CreateShortUrlResponse = { success: true, data: { ...result.record, managementCode: result.managementCode } };
    res.status(result.created ? 201 : 200).json(response);
  };
}
