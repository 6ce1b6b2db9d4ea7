import { CREDIT_MAX_LENGTH, SHORT_CODE_MAX_LENGTH, URL_MAX_LENGTH } from '../shortener.js';
import { schemaRef } from './error-schemas.js';
import { serviceDocument } from './document.js';
import { header } from './headers.js';
import { empty, json, jsonBody, media, operation, pathParameter, queryParameter } from './operations.js';
import type { OpenApiDocument, ResponseObject } from './types.js';

const RECORD = {
  type: 'object',
  required: ['code', 'createdAt', 'modifiedAt', 'url', 'pos', 'credit', 'fullURL'],
  properties: {
    code: { type: 'string', pattern: '^[A-Za-z0-9-]+$', maxLength: SHORT_CODE_MAX_LENGTH },
    createdAt: { type: 'string', format: 'date-time' },
    modifiedAt: { type: ['string', 'null'], format: 'date-time' },
    url: { type: 'string', maxLength: URL_MAX_LENGTH },
    pos: { type: 'integer', minimum: 1, description: "The entry's 1-based creation sequence number." },
    credit: { type: 'string', maxLength: CREDIT_MAX_LENGTH },
    fullURL: { type: 'string', format: 'uri', description: 'SHORTENER_URL + "/" + code.' },
  },
};

const code = pathParameter('code', 'The short code (A-Z, a-z, 0-9 and -; case-sensitive).');
const tags = ['short urls'];
const managementCode = { type: 'string', minLength: 1, description: 'The secret given once at creation.' };
const rateLimitText = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Reset-After', 'X-RateLimit-Bucket'] as const;

/** The lookup limit's 429 on the public redirect and preview, in the path's own format (docs/api.md §2). */
function lookupLimited(type: 'text/plain' | 'text/html'): ResponseObject {
  return media(
    `Lookup limit (bucket \`shortener.lookup\`, per client IP; warm redirects and cached previews never count): a ${type === 'text/html' ? 'page' : 'text'} ending with "(code 1000)" or "(code 1001)".`,
    [type],
    { ...Object.fromEntries(rateLimitText.map((name) => [name, header(name, true)])), 'Retry-After': header('Retry-After', true) },
  );
}

const recordResponse = (description: string): ResponseObject =>
  json(description, { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data: schemaRef('ShortUrlRecord') }, additionalProperties: false });

const created = {
  type: 'object',
  required: ['success', 'data'],
  properties: {
    success: { const: true },
    data: {
      allOf: [schemaRef('ShortUrlRecord')],
      required: ['managementCode'],
      properties: { managementCode: { type: ['string', 'null'], description: 'Shown once; null when not editable or when the URL already had a fixed entry.' } },
      unevaluatedProperties: false,
    },
  },
  additionalProperties: false,
};

const createBody = {
  type: 'object',
  required: ['url'],
  properties: {
    url: { type: 'string', maxLength: URL_MAX_LENGTH, description: 'Absolute http, https or ftp URL to a public host.' },
    code: { type: ['string', 'null'], maxLength: SHORT_CODE_MAX_LENGTH, pattern: '^[A-Za-z0-9-]*$', description: 'A custom code; absent, null or empty for a random one.' },
    credit: { type: ['string', 'null'], maxLength: CREDIT_MAX_LENGTH, description: 'Default "Unknown".' },
  },
};

const manageErrors = ['MANAGEMENT_CODE_REQUIRED', 'NO_MANAGEMENT_CODE', 'MANAGEMENT_CODE_MISMATCH', 'SHORT_URL_NOT_FOUND'] as const;
const write = { tags, access: { key: 'shortener' as const }, rateLimit: 'shortener.manage', readOnlyAffected: true, readsBody: true };
const redirectCache = { 'Cache-Control': header('Cache-Control', true) };

/** The shortener (docs/api.md §2). */
export const shortenerOpenApi: OpenApiDocument = serviceDocument({
  service: 'shortener',
  title: 'Pawlink shortener',
  description: 'Short links: create them with an API key, follow them anywhere, edit or delete them with the management code given at creation.',
  tags: [{ name: 'short urls', description: 'Create, follow, read, edit and delete short links.' }],
  schemas: { ShortUrlRecord: RECORD },
  paths: {
    '/create': {
      post: operation({
        ...write,
        rateLimit: 'shortener.create',
        operationId: 'createShortUrl',
        summary: 'Create a short URL',
        description: 'Editable (with a management code) unless `editable=false`. A non-editable create of a URL that already has a non-editable entry answers 200 with that entry.',
        parameters: [queryParameter('editable', 'Exactly `false` for an entry nobody can change (shared with other creators of the same URL).', { type: 'string' })],
        requestBody: jsonBody('The target and optional code and credit.', createBody),
        responses: { '201': json('Created.', created), '200': json('The existing fixed entry for this URL (`editable=false` only); managementCode is null.', created) },
        errors: ['CODE_TOO_LONG', 'INVALID_CODE', 'CODE_IN_USE', 'INVALID_URL', 'CREDIT_TOO_LONG'],
      }),
    },
    '/delete': {
      post: operation({
        ...write,
        operationId: 'deleteShortUrlAlias',
        summary: 'Delete a short URL (compatibility alias of DELETE /{code})',
        requestBody: jsonBody('The code and its management code.', { type: 'object', required: ['code', 'managementCode'], properties: { code: { type: 'string' }, managementCode } }),
        responses: { '204': empty('Deleted.') },
        errors: [...manageErrors],
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
        responses: { '200': recordResponse('The record.') },
        errors: ['SHORT_URL_NOT_FOUND'],
      }),
    },
    '/{code}+': {
      get: operation({
        tags,
        access: 'public',
        operationId: 'previewShortUrl',
        summary: 'Preview page of a short URL',
        description: 'HTML: the target URL, credit, times and a copy button, under a strict CSP. Misses of the in-process preview cache count against the lookup limit.',
        parameters: [code],
        responses: {
          '200': media('The preview page.', ['text/html'], { 'Content-Security-Policy': header('Content-Security-Policy', true) }),
          '404': media('No such short URL (an HTML page).', ['text/html'], { 'Content-Security-Policy': header('Content-Security-Policy', true) }),
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
        description: 'Answered before the Express stack when the code is warm in the instance (no Redis or MySQL). Misses count against the lookup limit.',
        parameters: [code],
        responses: {
          '302': empty('To the target URL.', { Location: header('Location', true), ...redirectCache }),
          '404': media('"Unknown short url code." (plain text).', ['text/plain']),
          '429': lookupLimited('text/plain'),
        },
      }),
      patch: operation({
        ...write,
        operationId: 'updateShortUrl',
        summary: 'Change the target URL or credit',
        parameters: [code],
        requestBody: jsonBody('The management code and what changes.', {
          type: 'object',
          required: ['managementCode'],
          properties: { managementCode, url: createBody.properties.url, credit: createBody.properties.credit },
        }),
        responses: { '200': recordResponse('The changed record; modifiedAt is set.') },
        errors: [...manageErrors, 'NO_CHANGES', 'INVALID_URL', 'CREDIT_TOO_LONG', 'UNKNOWN_ROUTE'],
      }),
      delete: operation({
        ...write,
        operationId: 'deleteShortUrl',
        summary: 'Delete a short URL',
        parameters: [code],
        requestBody: jsonBody('The management code.', { type: 'object', required: ['managementCode'], properties: { managementCode } }),
        responses: { '204': empty('Deleted.') },
        errors: [...manageErrors, 'UNKNOWN_ROUTE'],
      }),
    },
  },
});
