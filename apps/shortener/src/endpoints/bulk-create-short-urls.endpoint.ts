import { apiKeyOf } from '@pawlink/auth';
import {
  BULK_CREATE_BODY_MAX_BYTES,
  BULK_CREATE_MAX_LINKS,
  BulkCreateItemResultSchema,
  Errors,
  s,
} from '@pawlink/contracts';
import { json, successWith } from '@pawlink/contracts/openapi';
import {
  inBody,
  inQuery,
  objectChecker,
  objectSchemaOf,
  parsedBody,
  rateLimit,
  requireKey,
  VALIDATION,
  writable,
} from '@pawlink/service-kit';
import type { Request } from 'express';
import type { BulkCreateItem } from '../services/bulk-create-short-urls.service.js';
import { bulkLinks, createShortUrlBody, editable } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/** How many units of the create bucket a validated bulk request takes: one per item. */
function bulkCreateUnits(req: Request): number {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && 'links' in body && Array.isArray(body.links)
    ? body.links.length
    : 0;
}

/**
 * POST /create/bulk `[?editable=false]` {links: [...]}: `editable` as on POST /create (1057), then
 * the list itself (400 1084: `links` missing, not an array, empty or over 100). Each item is then
 * checked on its own by POST /create's body fields (so it fails with the code and message a create
 * would), and one bad item fails only itself. The rate limit comes after validation: it takes one
 * unit of `shortener.create` per item, all or nothing, and the items are known once the body is read.
 */
export const bulkCreateShortUrlsEndpoint = shortenerEndpoint({
  operationId: 'bulkCreateShortUrls',
  summary: 'Create up to 100 short URLs',
  description:
    `Each item is one POST /create, in input order (a code or a fixed URL used twice behaves as two creates one after the other), and the key is recorded as each new entry's owner. ` +
    `Each item takes one unit of the \`shortener.create\` bucket (the request one of the global window), all or nothing: a request that does not fit in what is left is refused whole with 429 and nothing is created or counted. ` +
    `A request with more items than the key's bucket allows in a whole window (120 a minute by default) could never fit: it is 422 1086 at once, naming the bucket, its limit and the most a request can send (\`extra.maxItems\`). ` +
    `The body may be up to ${BULK_CREATE_BODY_MAX_BYTES / 1024} KiB (100 items with every field at its longest), above BODY_LIMIT_BYTES. ` +
    `400 1084 for a body that is not {links: [...]} with 1 to ${BULK_CREATE_MAX_LINKS} items; an item that fails answers its own failure and the others go on.`,
  tags: SHORT_URL_TAGS,
  method: 'post',
  path: '/create/bulk',
  refuseOtherMethods: true,
  // 100 items at their longest do not fit in BODY_LIMIT_BYTES (100 KiB by default); no other body grows so.
  bodyLimitBytes: BULK_CREATE_BODY_MAX_BYTES,
  guards: [
    requireKey('shortener'),
    writable(),
    parsedBody(),
    VALIDATION,
    rateLimit('shortener.create', { units: bulkCreateUnits }),
  ],
  fields: {
    editable: inQuery(
      editable(
        'As on POST /create, for every item: `false` or `0` for entries nobody can change; `true`, `1` or absent for editable ones. Any other value, or the parameter twice, is 400 1057.',
      ),
    ),
    links: inBody(bulkLinks(objectSchemaOf(createShortUrlBody, { closed: true }))),
  },
  // JSON only: a form body cannot carry a list of objects.
  body: { description: 'The links to create.', media: 'json' },
  responses: {
    200: json(
      'One result per item, in input order.',
      successWith(s.array(BulkCreateItemResultSchema, { minItems: 1, maxItems: BULK_CREATE_MAX_LINKS })),
    ),
  },
  errors: ['BULK_ABOVE_RATE_LIMIT'],
  handler: ({ services, config }) => {
    const checkItem = objectChecker(createShortUrlBody, config, 'an item of POST /create/bulk');
    /** One item: a create's input, or its failure (1084 for an item that is not an object). */
    const itemOf = async (item: unknown, index: number, req: Request): Promise<BulkCreateItem> => {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        return {
          ok: false,
          code: Errors.BULK_CREATE_INVALID.code,
          error: `Item ${index} of links is not an object: expected {url, code?, credit?, expiresAt?, maxVisits?}.`,
        };
      return checkItem(item, req.headers);
    };
    return async ({ input: { editable, links }, req, res }) => {
      const items = await Promise.all(links.map((item, index) => itemOf(item, index, req)));
      const data = await services.bulkCreateShortUrls.createAll(items, {
        editable,
        ownerKeyId: apiKeyOf(res)?.id ?? null,
      });
      return { status: 200, body: { success: true, data } };
    };
  },
});
