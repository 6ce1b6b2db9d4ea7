import type { ShortUrlResponse } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';

/** GET /:code.json: the record, or 404 1075. */
export function getShortUrlHandler(service: ShortUrlService): RequestHandler<{ code: string }> {
  return async (req, res) => {
    const entry = await service.find(req.params.code);
    if (!entry) throw new ApiError('SHORT_URL_NOT_FOUND');
    const response: ShortUrlResponse = { success: true, data: service.toRecord(entry) };
    res.json(response);
  };
}
