import type { ShortUrlResponse } from '@pawlink/contracts';
import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';
import { bodyOf } from './request-body.js';

/** PATCH /:code {managementCode, url?, credit?}: the changed record. */
export function updateShortUrlHandler(service: ShortUrlService): RequestHandler<{ code: string }> {
  return async (req, res) => {
    const body = bodyOf(req);
    const record = await service.update(req.params.code, { managementCode: body.managementCode, url: body.url, credit: body.credit });
    const response: ShortUrlResponse = { success: true, data: record };
    res.json(response);
  };
}
