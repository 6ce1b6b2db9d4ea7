import { json, successWith } from '@pawlink/contracts/openapi';
import { shortUrlWithVisitsRef } from '@pawlink/contracts';
import { inBody, inPath, optional, parsedBody, rateLimit, requireKey, writable } from '@pawlink/service-kit';
import {
  credit,
  existingCode,
  expiresAt,
  linkPassword,
  managementCode,
  maxVisits,
  redirectRules,
  tags,
  targetUrl,
} from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/**
 * PATCH /:code {managementCode, url?, credit?, expiresAt?, maxVisits?, tags?}: a field it does not take
 * (1017: an edit never half-applies what the client meant), 1076, then the code (1075), then
 * 1073 / 1074 / 1081 / 1082 / 1087 for what is given; the changed record with its visits.
 */
export const updateShortUrlEndpoint = shortenerEndpoint({
  operationId: 'updateShortUrl',
  summary: 'Change the target URL, credit, expiry date, visit limit or tags',
  description: 'A field it does not take is 400 1017, naming the field, and nothing of the request is applied.',
  tags: SHORT_URL_TAGS,
  method: 'patch',
  path: '/:code',
  guards: [requireKey('shortener'), rateLimit('shortener.manage'), writable(), parsedBody()],
  onlyBodyFieldsOf: 'PATCH',
  fields: {
    managementCode: inBody(managementCode()),
    code: inPath(existingCode()),
    url: inBody(optional(targetUrl())),
    credit: inBody(optional(credit())),
    expiresAt: inBody(optional(expiresAt())),
    maxVisits: inBody(optional(maxVisits())),
    tags: inBody(optional(tags())),
    password: inBody(optional(linkPassword())),
    rules: inBody(optional(redirectRules())),
  },
  body: { description: 'The management code and what changes.' },
  responses: {
    200: json('The changed record with its visits; modifiedAt is set.', successWith(shortUrlWithVisitsRef)),
  },
  errors: ['NO_MANAGEMENT_CODE', 'MANAGEMENT_CODE_MISMATCH', 'SHORT_URL_NOT_FOUND', 'NO_CHANGES', 'UNKNOWN_ROUTE'],
  handler:
    ({ services }) =>
    async ({ input: { code, ...change } }) => ({
      status: 200,
      body: { success: true, data: await services.updateShortUrl.update(code, change) },
    }),
});
