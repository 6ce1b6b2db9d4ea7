import {
  BULK_CREATE_BODY_MAX_BYTES,
  BULK_CREATE_MAX_LINKS,
  CREDIT_MAX_LENGTH,
  LINKS_PAGE_DEFAULT,
  LINKS_PAGE_MAX,
  LINKS_QUERY_MAX_LENGTH,
  MAX_VISITS_LIMIT,
  QR_MARGIN_DEFAULT,
  QR_MARGIN_MAX,
  QR_SIZE_DEFAULT,
  QR_SIZE_MAX,
  QR_SIZE_MIN,
  SHORT_CODE_MAX_LENGTH,
  URL_MAX_LENGTH,
} from '../shortener.js';
import { schemaRef } from './error-schemas.js';
import { serviceDocument } from './document.js';
import { header } from './headers.js';
import { empty, json, jsonBody, media, operation, pathParameter, queryParameter, successWith } from './operations.js';
import type { OpenApiDocument, ResponseObject } from './types.js';

const RECORD = {
  type: 'object',
  required: ['code', 'createdAt', 'modifiedAt', 'url', 'pos', 'credit', 'fullURL', 'expiresAt', 'maxVisits'],
  properties: {
    code: { type: 'string', pattern: '^[A-Za-z0-9-]+$', maxLength: SHORT_CODE_MAX_LENGTH },
    createdAt: { type: 'string', format: 'date-time' },
    modifiedAt: { type: ['string', 'null'], format: 'date-time' },
    url: { type: 'string', maxLength: URL_MAX_LENGTH },
    pos: { type: 'integer', minimum: 1, description: "The entry's 1-based creation sequence number." },
    credit: { type: 'string', maxLength: CREDIT_MAX_LENGTH },
    fullURL: { type: 'string', format: 'uri', description: 'SHORTENER_URL + "/" + code.' },
    expiresAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the link expires (UTC, ms); null when unset.',
    },
    maxVisits: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: MAX_VISITS_LIMIT,
      description: 'The counted visits after which the link expires; null when unset.',
    },
  },
};

/** The record with its total of counted visits (`GET /{code}.json`, PATCH). */
const RECORD_WITH_VISITS = {
  allOf: [schemaRef('ShortUrlRecord')],
  required: ['visits'],
  properties: { visits: { type: 'integer', minimum: 0, description: "The link's total of counted visits." } },
  unevaluatedProperties: false,
};

/** One value of a breakdown list and its visits. */
const breakdownEntry = (key: string, description: string) => ({
  type: 'object',
  required: [key, 'visits'],
  properties: { [key]: { type: 'string', description }, visits: { type: 'integer', minimum: 1 } },
  additionalProperties: false,
});

const STATS = successWith({
  type: 'object',
  required: ['code', 'visits', 'days', 'referrers', 'countries', 'browsers', 'os', 'devices'],
  properties: {
    code: { type: 'string' },
    visits: { type: 'integer', minimum: 0, description: 'The total of counted visits.' },
    days: {
      type: 'array',
      description: 'The UTC days of the last 90 (today included) that had visits, oldest first.',
      items: {
        type: 'object',
        required: ['date', 'visits'],
        properties: { date: { type: 'string', format: 'date' }, visits: { type: 'integer', minimum: 1 } },
        additionalProperties: false,
      },
    },
    referrers: {
      type: 'array',
      maxItems: 21,
      description:
        "Where the visits of `days` came from: the top 20 referring hosts (the `Referer` URL's host, lower case, without port; `direct` for none or an unparseable one), most visits first, then `other` for the rest. Visits counted before the breakdown existed are `unknown`. Adds up to the visits of `days`.",
      items: breakdownEntry('host', 'A host name, `direct`, `unknown` or `other`.'),
    },
    countries: {
      type: 'array',
      description:
        "The visitors' countries, most visits first; `unknown` when the address is not in the database. From a local country database, by default [IP Geolocation by DB-IP](https://db-ip.com) (IP to Country Lite, CC BY 4.0); the address is never stored. Adds up to the visits of `days`.",
      items: breakdownEntry('country', 'ISO 3166 alpha-2, or `unknown`.'),
    },
    browsers: {
      type: 'array',
      maxItems: 11,
      description:
        'The top 10 browsers by visits, then `other` for the rest (and the unrecognised). Adds up to the visits of `days`.',
      items: breakdownEntry('name', 'A browser name (e.g. `Chrome`, `Firefox`, `Safari`), or `other`.'),
    },
    os: {
      type: 'array',
      maxItems: 11,
      description: 'The top 10 operating systems by visits, then `other`. Adds up to the visits of `days`.',
      items: breakdownEntry('name', 'An OS name (e.g. `Windows`, `macOS`, `iOS`, `Android`, `Linux`), or `other`.'),
    },
    devices: {
      type: 'object',
      description:
        'Visits by device type (TVs, consoles and the unrecognised are `other`). Adds up to the visits of `days`.',
      required: ['desktop', 'mobile', 'tablet', 'other'],
      properties: {
        desktop: { type: 'integer', minimum: 0 },
        mobile: { type: 'integer', minimum: 0 },
        tablet: { type: 'integer', minimum: 0 },
        other: { type: 'integer', minimum: 0 },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});

const code = pathParameter('code', 'The short code (A-Z, a-z, 0-9 and -; case-sensitive).');
const tags = ['short urls'];
const managementCode = { type: 'string', minLength: 1, description: 'The secret given once at creation.' };
const rateLimitText = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Reset-After',
  'X-RateLimit-Bucket',
] as const;

/** The lookup limit's 429 on the public redirect and preview, in the path's own format (docs/api.md §2). */
function lookupLimited(type: 'text/plain' | 'text/html'): ResponseObject {
  return media(
    `Lookup limit (bucket \`shortener.lookup\`, per client IP; warm redirects and cached previews never count): a ${type === 'text/html' ? 'page' : 'text'} ending with "(code 1000)" or "(code 1001)".`,
    [type],
    {
      ...Object.fromEntries(rateLimitText.map((name) => [name, header(name, true)])),
      'Retry-After': header('Retry-After', true),
    },
  );
}

const recordResponse = (description: string): ResponseObject =>
  json(description, successWith(schemaRef('ShortUrlWithVisits')));

/** An expired link's 410 on the public redirect and preview: an HTML page saying when and why, never the destination. */
const expiredPage = (): ResponseObject =>
  media(
    "The link expired (`expiresAt` passed or `maxVisits` used up): an HTML page saying when and why, under the preview's CSP.",
    ['text/html'],
    {
      'Content-Security-Policy': header('Content-Security-Policy', true),
    },
  );

const CREATED = {
  allOf: [schemaRef('ShortUrlRecord')],
  required: ['managementCode'],
  properties: {
    managementCode: {
      type: ['string', 'null'],
      description: 'Shown once; null when not editable or when the URL already had a fixed entry.',
    },
  },
  unevaluatedProperties: false,
};
const created = successWith(CREATED);

/** `GET /links`: a page of the key's entries and the cursor of the next. */
const LINKS_PAGE = successWith({
  type: 'object',
  required: ['links', 'next'],
  properties: {
    links: {
      type: 'array',
      maxItems: LINKS_PAGE_MAX,
      items: schemaRef('ShortUrlWithVisits'),
      description: 'Newest first (createdAt, then pos, descending); expired entries included.',
    },
    next: { type: ['string', 'null'], description: 'The `cursor` of the next page; null on the last one.' },
  },
  additionalProperties: false,
});

/** One item's outcome in `POST /create/bulk`: what POST /create would have answered, or its failure. */
const BULK_ITEM_RESULT = {
  oneOf: [
    {
      type: 'object',
      required: ['success', 'status', 'data'],
      properties: {
        success: { const: true },
        status: {
          enum: [201, 200],
          description: "The status POST /create would have answered: 201 made, 200 the URL's existing fixed entry.",
        },
        data: CREATED,
      },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['success', 'code', 'error'],
      properties: {
        success: { const: false },
        code: {
          type: 'integer',
          description:
            'The code POST /create would have answered (1070–1074, 1081, 1082), or 1084 for an item that is not an object.',
        },
        error: { type: 'string' },
      },
      additionalProperties: false,
    },
  ],
};

const createBody = {
  type: 'object',
  required: ['url'],
  // Any other field is 400 1017 (an item of a bulk create: that item's result), as on PATCH.
  additionalProperties: false,
  properties: {
    url: {
      type: 'string',
      maxLength: URL_MAX_LENGTH,
      description: 'Absolute http, https or ftp URL to a public host.',
    },
    code: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: SHORT_CODE_MAX_LENGTH,
      pattern: '^[A-Za-z0-9-]+$',
      description: 'A custom code; absent or null for a random one (an empty string is 1071).',
    },
    credit: { type: ['string', 'null'], maxLength: CREDIT_MAX_LENGTH, description: 'Default "Unknown".' },
    expiresAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'ISO 8601 date-time with a zone, in the future; null clears it (PATCH).',
    },
    maxVisits: {
      oneOf: [
        { type: 'integer', minimum: 1, maximum: MAX_VISITS_LIMIT },
        { type: 'string', pattern: '^[0-9]+$' },
        { type: 'null' },
      ],
      description: `A whole number from 1 to ${MAX_VISITS_LIMIT}: a JSON number (a string is 1082), or digits in a form body; null clears it (PATCH).`,
    },
  },
};

const manageErrors = [
  'MANAGEMENT_CODE_REQUIRED',
  'NO_MANAGEMENT_CODE',
  'MANAGEMENT_CODE_MISMATCH',
  'SHORT_URL_NOT_FOUND',
] as const;
const write = {
  tags,
  access: { key: 'shortener' as const },
  rateLimit: 'shortener.manage',
  readOnlyAffected: true,
  readsBody: true,
};
const redirectCache = { 'Cache-Control': header('Cache-Control', true) };

/** The shortener (docs/api.md §2). */
export const shortenerOpenApi: OpenApiDocument = serviceDocument({
  service: 'shortener',
  title: 'Pawlink shortener',
  description:
    'Short links: create them with an API key, follow them anywhere, edit or delete them with the management code given at creation.',
  tags: [{ name: 'short urls', description: 'Create, follow, read, edit and delete short links.' }],
  schemas: { ShortUrlRecord: RECORD, ShortUrlWithVisits: RECORD_WITH_VISITS },
  paths: {
    '/create': {
      post: operation({
        ...write,
        rateLimit: 'shortener.create',
        operationId: 'createShortUrl',
        summary: 'Create a short URL',
        description:
          'Editable (with a management code) unless `editable=false`. A non-editable create (without `expiresAt` and `maxVisits`) of a URL that already has a non-editable entry answers 200 with that entry; a create with either always makes its own entry.',
        parameters: [
          queryParameter(
            'editable',
            '`false` or `0` for an entry nobody can change (shared with other creators of the same URL); `true` or `1`, or absent, for an editable one. Any other value, or the parameter twice, is 400 1057.',
            {
              enum: ['true', 'false', '1', '0'],
            },
          ),
        ],
        requestBody: jsonBody('The target and optional code, credit, expiry date and visit limit.', createBody),
        responses: {
          '201': json('Created.', created),
          '200': json(
            'The existing fixed entry for this URL (`editable=false` only); managementCode is null.',
            created,
          ),
        },
        errors: [
          'INVALID_QUERY_VALUE',
          'UNKNOWN_BODY_FIELD',
          'CODE_TOO_LONG',
          'INVALID_CODE',
          'CODE_IN_USE',
          'INVALID_URL',
          'CREDIT_TOO_LONG',
          'INVALID_EXPIRES_AT',
          'INVALID_MAX_VISITS',
        ],
      }),
    },
    '/create/bulk': {
      post: operation({
        ...write,
        rateLimit: 'shortener.create',
        operationId: 'bulkCreateShortUrls',
        summary: 'Create up to 100 short URLs',
        description:
          `Each item is one POST /create, in input order (a code or a fixed URL used twice behaves as two creates one after the other), and the key is recorded as each new entry's owner. ` +
          `Each item takes one unit of the \`shortener.create\` bucket (the request one of the global window), all or nothing: a request that does not fit in what is left is refused whole with 429 and nothing is created or counted. ` +
          `A request with more items than the key's bucket allows in a whole window (120 a minute by default) could never fit: it is 422 1086 at once, naming the bucket, its limit and the most a request can send (\`extra.maxItems\`). ` +
          `The body may be up to ${BULK_CREATE_BODY_MAX_BYTES / 1024} KiB (100 items with every field at its longest), above BODY_LIMIT_BYTES. ` +
          `400 1084 for a body that is not {links: [...]} with 1 to ${BULK_CREATE_MAX_LINKS} items; an item that fails answers its own failure and the others go on.`,
        parameters: [
          queryParameter(
            'editable',
            'As on POST /create, for every item: `false` or `0` for entries nobody can change; `true`, `1` or absent for editable ones. Any other value, or the parameter twice, is 400 1057.',
            {
              enum: ['true', 'false', '1', '0'],
            },
          ),
        ],
        // JSON only: a form body cannot carry a list of objects.
        requestBody: {
          description: 'The links to create.',
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['links'],
                properties: {
                  links: { type: 'array', minItems: 1, maxItems: BULK_CREATE_MAX_LINKS, items: createBody },
                },
              },
            },
          },
        },
        responses: {
          '200': json(
            'One result per item, in input order.',
            successWith({ type: 'array', minItems: 1, maxItems: BULK_CREATE_MAX_LINKS, items: BULK_ITEM_RESULT }),
          ),
        },
        errors: ['INVALID_QUERY_VALUE', 'BULK_CREATE_INVALID', 'BULK_ABOVE_RATE_LIMIT'],
      }),
    },
    '/links': {
      get: operation({
        tags,
        access: { key: 'shortener' },
        rateLimit: 'shortener.read',
        operationId: 'listShortUrls',
        summary: 'The short URLs created with this key',
        description:
          'Newest first (creation time, then pos), expired ones included, with their visits. Keyset pagination: pass `next` as `cursor` for the next page; entries created meanwhile never shift a later page. ' +
          'Entries created before owners were recorded, and fixed entries another key created first (a 200 from POST /create), are not listed. Any other endpoint keeps its access rules.',
        parameters: [
          queryParameter('limit', `Entries per page, 1 to ${LINKS_PAGE_MAX}.`, {
            type: 'integer',
            minimum: 1,
            maximum: LINKS_PAGE_MAX,
            default: LINKS_PAGE_DEFAULT,
          }),
          queryParameter('cursor', 'The `next` of the previous page, unchanged (opaque).', { type: 'string' }),
          queryParameter('q', 'Only entries whose code, url or credit contains this text, ignoring case.', {
            type: 'string',
            minLength: 1,
            maxLength: LINKS_QUERY_MAX_LENGTH,
          }),
        ],
        responses: { '200': json('A page of entries.', LINKS_PAGE) },
        errors: ['INVALID_QUERY_VALUE'],
      }),
    },
    '/delete': {
      post: operation({
        ...write,
        operationId: 'deleteShortUrlAlias',
        summary: 'Delete a short URL (compatibility alias of DELETE /{code})',
        requestBody: jsonBody('The code and its management code.', {
          type: 'object',
          required: ['code', 'managementCode'],
          additionalProperties: false,
          properties: { code: { type: 'string' }, managementCode },
        }),
        responses: { '204': empty('Deleted.') },
        errors: [...manageErrors, 'UNKNOWN_BODY_FIELD'],
      }),
    },
    '/{code}.json': {
      get: operation({
        tags,
        access: { key: 'shortener' },
        rateLimit: 'shortener.read',
        operationId: 'getShortUrl',
        summary: 'A short URL as JSON',
        parameters: [code],
        responses: { '200': recordResponse('The record with its visits.') },
        errors: ['SHORT_URL_NOT_FOUND', 'SHORT_URL_EXPIRED'],
      }),
    },
    '/{code}/stats': {
      get: operation({
        tags,
        access: { key: 'shortener' },
        rateLimit: 'shortener.stats',
        operationId: 'getShortUrlStats',
        summary: 'Counted visits of a short URL',
        description:
          'The total, the UTC days of the last 90 that had visits, and where those visits came from (referrers, countries, browsers, OS, devices); expired links too. Only counted (human) visits.',
        parameters: [code],
        responses: { '200': json('The visits.', STATS) },
        errors: ['SHORT_URL_NOT_FOUND'],
      }),
    },
    '/{code}/qr': {
      get: operation({
        tags,
        access: 'public',
        operationId: 'getShortUrlQr',
        summary: 'QR code of a short URL',
        description:
          "A QR code of the entry's `fullURL` (expired entries too), as SVG (scalable) or PNG. Misses of the in-process entry cache count against the lookup limit (`shortener.lookup`, per client IP).",
        parameters: [
          code,
          queryParameter('format', '`svg` (default) or `png`.', { enum: ['svg', 'png'], default: 'svg' }),
          queryParameter(
            'size',
            `PNG only: the whole image's width and height in pixels, margin included (${QR_SIZE_MIN}–${QR_SIZE_MAX}); a size smaller than the code's modules is 400 1057.`,
            {
              type: 'integer',
              minimum: QR_SIZE_MIN,
              maximum: QR_SIZE_MAX,
              default: QR_SIZE_DEFAULT,
            },
          ),
          queryParameter('margin', `Quiet zone in modules (0–${QR_MARGIN_MAX}).`, {
            type: 'integer',
            minimum: 0,
            maximum: QR_MARGIN_MAX,
            default: QR_MARGIN_DEFAULT,
          }),
        ],
        responses: {
          '200': media('The QR code.', ['image/svg+xml', 'image/png'], {
            'Cache-Control': header('Cache-Control', true),
          }),
        },
        errors: ['INVALID_QUERY_VALUE', 'SHORT_URL_NOT_FOUND', 'RATE_LIMITED_ROUTE', 'RATE_LIMITED_GLOBAL'],
      }),
    },
    '/{code}+': {
      get: operation({
        tags,
        access: 'public',
        operationId: 'previewShortUrl',
        summary: 'Preview page of a short URL',
        description:
          "HTML: the target URL, credit, times, a copy button and the link's QR code (inline SVG, with PNG and SVG download links), under a strict CSP. Misses of the in-process preview cache count against the lookup limit.",
        parameters: [code],
        responses: {
          '200': media('The preview page.', ['text/html'], {
            'Content-Security-Policy': header('Content-Security-Policy', true),
          }),
          '404': media('No such short URL (an HTML page).', ['text/html'], {
            'Content-Security-Policy': header('Content-Security-Policy', true),
          }),
          '410': expiredPage(),
          '429': lookupLimited('text/html'),
        },
      }),
    },
    '/{code}': {
      get: operation({
        tags,
        access: 'public',
        operationId: 'followShortUrl',
        summary: 'Follow a short URL',
        description:
          'Answered before the Express stack when the code is warm in the instance (no Redis or MySQL). Misses count against the lookup limit. ' +
          '`/metrics` is never a code: it is not on the public URL and answers 404 1024 (JSON).',
        parameters: [code],
        responses: {
          '302': empty('To the target URL.', { Location: header('Location', true), ...redirectCache }),
          '404': media('"Unknown short url code." (plain text).', ['text/plain']),
          '410': expiredPage(),
          '429': lookupLimited('text/plain'),
        },
        errors: ['UNKNOWN_ROUTE'],
      }),
      patch: operation({
        ...write,
        operationId: 'updateShortUrl',
        summary: 'Change the target URL, credit, expiry date or visit limit',
        parameters: [code],
        description: 'A field it does not take is 400 1017, naming the field, and nothing of the request is applied.',
        requestBody: jsonBody('The management code and what changes.', {
          type: 'object',
          required: ['managementCode'],
          properties: {
            managementCode,
            url: createBody.properties.url,
            credit: createBody.properties.credit,
            expiresAt: createBody.properties.expiresAt,
            maxVisits: createBody.properties.maxVisits,
          },
          additionalProperties: false,
        }),
        responses: { '200': recordResponse('The changed record with its visits; modifiedAt is set.') },
        errors: [
          ...manageErrors,
          'UNKNOWN_BODY_FIELD',
          'NO_CHANGES',
          'INVALID_URL',
          'CREDIT_TOO_LONG',
          'INVALID_EXPIRES_AT',
          'INVALID_MAX_VISITS',
          'UNKNOWN_ROUTE',
        ],
      }),
      delete: operation({
        ...write,
        operationId: 'deleteShortUrl',
        summary: 'Delete a short URL',
        parameters: [code],
        requestBody: jsonBody('The management code.', {
          type: 'object',
          required: ['managementCode'],
          additionalProperties: false,
          properties: { managementCode },
        }),
        responses: { '204': empty('Deleted.') },
        errors: [...manageErrors, 'UNKNOWN_BODY_FIELD', 'UNKNOWN_ROUTE'],
      }),
    },
  },
});
