import { apiKeyOf } from '@pawlink/auth';
import { LINKS_PAGE_DEFAULT, LINKS_PAGE_MAX, ShortUrlPageSchema } from '@pawlink/contracts';
import { json, successWith } from '@pawlink/contracts/openapi';
import { inQuery, optional, rateLimit, requireKey } from '@pawlink/service-kit';
import { linksCursor, linksQuery, tagFilter, wholeNumber } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/**
 * GET /links `?limit&cursor&q&tag`, checked in that order, each 400 1057 when bad: `limit` 1–100
 * (default 25), `cursor` a `next` value unchanged (decoded to a position), `q` 1–200 characters
 * (a bounded substring search), `tag` (repeatable: entries carrying every one). `links` is a reserved code.
 */
export const listShortUrlsEndpoint = shortenerEndpoint({
  operationId: 'listShortUrls',
  summary: 'The short URLs created with this key',
  description:
    'Newest first (creation time, then pos), expired ones included, with their visits. Keyset pagination: pass `next` as `cursor` for the next page; entries created meanwhile never shift a later page. ' +
    'Entries created before owners were recorded, and fixed entries another key created first (a 200 from POST /create), are not listed. Any other endpoint keeps its access rules.',
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: '/links',
  refuseOtherMethods: true,
  guards: [requireKey('shortener'), rateLimit('shortener.read')],
  fields: {
    limit: inQuery(
      wholeNumber('limit', {
        min: 1,
        max: LINKS_PAGE_MAX,
        fallback: LINKS_PAGE_DEFAULT,
        description: `Entries per page, 1 to ${LINKS_PAGE_MAX}.`,
      }),
    ),
    cursor: inQuery(optional(linksCursor())),
    q: inQuery(optional(linksQuery())),
    tag: inQuery(optional(tagFilter())),
  },
  responses: { 200: json('A page of entries.', successWith(ShortUrlPageSchema)) },
  handler:
    ({ services }) =>
    async ({ input: { limit, cursor, q, tag }, res }) => {
      // requireKey ran first: a key is always there.
      const ownerKeyId = apiKeyOf(res)!.id;
      const data = await services.listShortUrls.list({
        ownerKeyId,
        limit,
        ...(cursor ? { after: cursor } : {}),
        ...(q !== undefined ? { q } : {}),
        ...(tag !== undefined ? { tags: tag } : {}),
      });
      return { status: 200, body: { success: true, data } };
    },
});
