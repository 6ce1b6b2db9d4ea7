import { empty } from '@pawlink/contracts/openapi';
import { inBody, inPath, parsedBody, rateLimit, requireKey, writable, type Call } from '@pawlink/service-kit';
import { existingCode, managementCode } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint, type ShortenerEndpointDeps } from './shortener.deps.js';

const guards = [requireKey('shortener'), rateLimit('shortener.manage'), writable(), parsedBody()];
const errors = [
  'MANAGEMENT_CODE_REQUIRED',
  'NO_MANAGEMENT_CODE',
  'MANAGEMENT_CODE_MISMATCH',
  'SHORT_URL_NOT_FOUND',
] as const;

/** 204 once the entry named by its code and management code is gone. */
const deleteEntry =
  ({ services }: ShortenerEndpointDeps) =>
  async ({ input: { code, managementCode }, res }: Call<{ code: string; managementCode: string }>) => {
    await services.deleteShortUrl.delete(code, managementCode);
    res.status(204).end();
  };

/** DELETE /:code {managementCode}; any other field is 1017: key → rate limit → read-only → body → validation → handler. */
export const deleteShortUrlEndpoint = shortenerEndpoint({
  operationId: 'deleteShortUrl',
  summary: 'Delete a short URL',
  tags: SHORT_URL_TAGS,
  method: 'delete',
  path: '/:code',
  guards,
  onlyBodyFieldsOf: 'DELETE /:code',
  fields: { managementCode: inBody(managementCode()), code: inPath(existingCode()) },
  body: { description: 'The management code.' },
  responses: { 204: empty('Deleted.') },
  errors: [...errors, 'UNKNOWN_ROUTE'],
  handler: deleteEntry,
});

/** POST /delete {code, managementCode}: the compatibility alias (what the official client sends), with the same guards and answers; any other field is 1017; other methods 405. */
export const deleteShortUrlAliasEndpoint = shortenerEndpoint({
  operationId: 'deleteShortUrlAlias',
  summary: 'Delete a short URL (compatibility alias of DELETE /{code})',
  tags: SHORT_URL_TAGS,
  method: 'post',
  path: '/delete',
  refuseOtherMethods: true,
  guards,
  onlyBodyFieldsOf: 'POST /delete',
  fields: { managementCode: inBody(managementCode()), code: inBody(existingCode()) },
  body: { description: 'The code and its management code.' },
  responses: { 204: empty('Deleted.') },
  errors: [...errors],
  handler: deleteEntry,
});
