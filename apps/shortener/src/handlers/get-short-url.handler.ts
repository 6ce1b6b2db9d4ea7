import type { ShortUrlInfoResponse } from '@pawlink/contracts';
import { ApiError, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { GetShortUrlService } from '../services/get-short-url.service.js';
import type { GetShortUrlInput } from '../validation/get-short-url.validation.js';

/** GET /:code.json: the record with its visits; 404 1075; 410 1083 when it expired. */
export function getShortUrlHandler(shortUrls: GetShortUrlService): RequestHandler {
  return async (req, res) => {
    const record = await shortUrls.get(validated<GetShortUrlInput>(req).code);
    if (!record) throw new ApiError('SHORT_URL_NOT_FOUND');
    const response: ShortUrlInfoResponse = { success: true, data: record };
    res.json(response);
  };
}
