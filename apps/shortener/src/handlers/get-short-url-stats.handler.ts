import type { ShortUrlStatsResponse } from '@pawlink/contracts';
import { ApiError, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../services/short-url.service.js';
import type { ShortUrlCodeInput } from '../validation/short-url.validation.js';

/** GET /:code/stats: the counted visits (total and the last 90 UTC days), expired links included; 404 1075. */
export function getShortUrlStatsHandler(shortUrls: ShortUrlService): RequestHandler {
  return async (req, res) => {
    const stats = await shortUrls.stats(validated<ShortUrlCodeInput>(req).code);
    if (!stats) throw new ApiError('SHORT_URL_NOT_FOUND');
    const response: ShortUrlStatsResponse = { success: true, data: stats };
    res.json(response);
  };
}
