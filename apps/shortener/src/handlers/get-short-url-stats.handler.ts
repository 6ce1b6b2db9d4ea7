import type { ShortUrlStatsResponse } from '@pawlink/contracts';
import { ApiError, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { GetShortUrlStatsService } from '../services/get-short-url-stats.service.js';
import type { GetShortUrlStatsInput } from '../validation/get-short-url-stats.validation.js';

/** GET /:code/stats: the counted visits (total, the last 90 UTC days and where they came from), expired links included; 404 1075. */
export function getShortUrlStatsHandler(shortUrls: GetShortUrlStatsService): RequestHandler {
  return async (req, res) => {
    const stats = await shortUrls.stats(validated<GetShortUrlStatsInput>(req).code);
    if (!stats) throw new ApiError('SHORT_URL_NOT_FOUND');
    const response: ShortUrlStatsResponse = { success: true, data: stats };
    res.json(response);
  };
}
