import { apiKeyOf } from '@pawlink/auth';
import { shortUrlWithVisitsRef } from '@pawlink/contracts';
import { json, successWith } from '@pawlink/contracts/openapi';
import { ApiError, inPath, rateLimit, requireKey } from '@pawlink/service-kit';
import { existingCode } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/** GET /:code.json: the record with its visits (its tags to its owner's key); 404 1075 (a malformed code cannot exist); 410 1083 when it expired. */
export const getShortUrlEndpoint = shortenerEndpoint({
  operationId: 'getShortUrl',
  summary: 'A short URL as JSON',
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: '/:code.json',
  guards: [requireKey('shortener'), rateLimit('shortener.read')],
  fields: { code: inPath(existingCode()) },
  responses: { 200: json('The record with its visits.', successWith(shortUrlWithVisitsRef)) },
  errors: ['SHORT_URL_EXPIRED'],
  handler:
    ({ services }) =>
    async ({ input: { code }, res }) => {
      const record = await services.getShortUrl.get(code, apiKeyOf(res)?.id ?? null);
      if (!record) throw new ApiError('SHORT_URL_NOT_FOUND');
      return { status: 200, body: { success: true, data: record } };
    },
});
