import { ShortUrlStatsSchema } from '@pawlink/contracts';
import { json, successWith } from '@pawlink/contracts/openapi';
import { ApiError, inPath, rateLimit, requireKey } from '@pawlink/service-kit';
import { existingCode } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/** GET /:code/stats: the counted visits (total, the last 90 UTC days and where they came from), expired links included; 404 1075. */
export const getShortUrlStatsEndpoint = shortenerEndpoint({
  operationId: 'getShortUrlStats',
  summary: 'Counted visits of a short URL',
  description:
    'The total, the UTC days of the last 90 that had visits, and where those visits came from (referrers, countries, browsers, OS, devices); expired links too. Only counted (human) visits.',
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: '/:code/stats',
  guards: [requireKey('shortener'), rateLimit('shortener.stats')],
  fields: { code: inPath(existingCode()) },
  responses: { 200: json('The visits.', successWith(ShortUrlStatsSchema)) },
  handler:
    ({ services }) =>
    async ({ input: { code } }) => {
      const stats = await services.getShortUrlStats.stats(code);
      if (!stats) throw new ApiError('SHORT_URL_NOT_FOUND');
      return { status: 200, body: { success: true, data: stats } };
    },
});
