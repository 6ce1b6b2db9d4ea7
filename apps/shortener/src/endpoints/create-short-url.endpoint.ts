import { apiKeyOf } from '@pawlink/auth';
import { CreatedShortUrlSchema } from '@pawlink/contracts';
import { json, successWith } from '@pawlink/contracts/openapi';
import { inQuery, parsedBody, rateLimit, requireKey, writable } from '@pawlink/service-kit';
import { createShortUrlBody, editable } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

const created = successWith(CreatedShortUrlSchema);

/**
 * POST /create `[?editable=false]` {code?, url, credit?, expiresAt?, maxVisits?, tags?}, checked in that
 * order: `editable` (1057), a field it does not take (1017), a custom code (absent or null means a random one; 1071 invalid, empty
 * included, 1070 too long), the url (1073), the credit (1074), expiresAt (1081), maxVisits (1082),
 * tags (1087).
 * 201 with the new record and its management code (owned by the presenting key); 200 with the
 * url's shared entry.
 */
export const createShortUrlEndpoint = shortenerEndpoint({
  operationId: 'createShortUrl',
  summary: 'Create a short URL',
  description:
    'Editable (with a management code) unless `editable=false`. A non-editable create (without `expiresAt` and `maxVisits`) of a URL that already has a non-editable entry answers 200 with that entry; a create with either (or with tags) always makes its own entry.',
  tags: SHORT_URL_TAGS,
  method: 'post',
  path: '/create',
  refuseOtherMethods: true,
  guards: [requireKey('shortener'), rateLimit('shortener.create'), writable(), parsedBody()],
  // A field it does not take is 1017, naming it (as PATCH): a client is told, not given a link without what it asked for.
  onlyBodyFieldsOf: 'POST /create',
  fields: {
    editable: inQuery(
      editable(
        '`false` or `0` for an entry nobody can change (shared with other creators of the same URL); `true` or `1`, or absent, for an editable one. Any other value, or the parameter twice, is 400 1057.',
      ),
    ),
    ...createShortUrlBody,
  },
  body: { description: 'The target and optional code, credit, expiry date, visit limit and tags.' },
  responses: {
    201: json('Created.', created),
    200: json('The existing fixed entry for this URL (`editable=false` only); managementCode is null.', created),
  },
  errors: ['CODE_IN_USE'],
  handler:
    ({ services }) =>
    async ({ input, res }) => {
      const result = await services.createShortUrl.create({ ...input, ownerKeyId: apiKeyOf(res)?.id ?? null });
      const body = { success: true as const, data: { ...result.record, managementCode: result.managementCode } };
      return result.created ? { status: 201, body } : { status: 200, body };
    },
});
