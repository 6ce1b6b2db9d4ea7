import { THUMBNAIL_TYPES, type ErrorName } from '@pawlink/contracts';
import type { PathItemObject } from '@pawlink/contracts/openapi';
import { ApiError, endpointOperation, inPath, rateLimit, requireKey, writable } from '@pawlink/service-kit';
import { putCheckSegmentsInOrder } from '../guards/check-segments.guard.js';
import {
  doneAnswer,
  doneBody,
  failureError,
  processingAnswer,
  processingBody,
  setPollHeaders,
} from '../http/thumbnail-responses.http.js';
import { checkMd5, checkType } from './thumbnail.fields.js';
import { THUMBNAIL_TAGS, thumbsEndpoint } from './thumbs.deps.js';

/** What the check's service answers itself. */
const CHECK_ERRORS: ErrorName[] = [
  'CHECK_NOT_FOUND',
  'POST_NOT_ON_BOARD',
  'THUMBNAIL_ERROR',
  'THUMBNAIL_TIMEOUT',
  'UNKNOWN_ROUTE',
];

/**
 * GET /check/:md5/:type, or the two segments the other way round (docs/api.md, "Thumbnails"):
 * key → rate limit → read-only → the segments in order → validation (the MD5 reported, 1063,
 * before the type, 1064) → handler: 201 done, 200 processing, 1068 / 1060 / 1065 for a kept
 * failure, 1066 when nothing is known.
 */
export const checkThumbnailEndpoint = thumbsEndpoint({
  operationId: 'checkThumbnail',
  summary: 'The state of a thumbnail job',
  description: '`/check/<md5>/<type>`, or the two segments the other way round.',
  tags: THUMBNAIL_TAGS,
  method: 'get',
  path: '/check/:md5/:type',
  guards: [
    requireKey('thumbs'),
    rateLimit('thumbs.check'),
    writable(),
    { doc: {}, use: () => putCheckSegmentsInOrder },
  ],
  fields: { md5: inPath(checkMd5()), type: inPath(checkType()) },
  responses: {
    201: doneAnswer('Done.'),
    200: processingAnswer('Still processing; ask again at checkAt.'),
  },
  errors: CHECK_ERRORS,
  handler:
    ({ services }) =>
    async ({ input: { md5, type }, res }) => {
      const state = await services.checkThumbnail.check(md5, type);
      res.setHeader('Cache-Control', 'no-store');
      switch (state.status) {
        case 'done':
          return { status: 201, body: doneBody(state) };
        case 'processing':
          setPollHeaders(res, state, false);
          return { status: 200, body: processingBody(state) };
        case 'failed':
        case 'notOnBoard':
          throw failureError(state);
        case 'missing':
          throw new ApiError('CHECK_NOT_FOUND');
      }
    },
});

/**
 * The original's order (`/check/<type>/<md5>`, what the yiffy client calls), documented as one
 * deprecated path per type: a template `/check/{type}/{md5}` would be the same path as
 * `/check/{md5}/{type}` to OpenAPI. `/check/:md5/:type` serves them; each is its operation with the
 * type fixed (and the same answers: its errors keep 1064).
 */
export const legacyCheckPaths: Record<string, PathItemObject> = Object.fromEntries(
  THUMBNAIL_TYPES.map((type) => [
    `/check/${type}/{md5}`,
    {
      get: {
        ...endpointOperation({
          ...checkThumbnailEndpoint,
          operationId: `checkThumbnailLegacy${type[0]!.toUpperCase()}${type.slice(1)}`,
          summary: `The state of a ${type} thumbnail job (the original's order; deprecated)`,
          description: `\`/check/${type}/<md5>\`: the same as \`/check/<md5>/${type}\`, kept for clients of the original server. New clients use /check/{md5}/{type}.`,
          fields: { md5: inPath(checkMd5("The MD5 of the post's file (32 hex digits, any case).")) },
          errors: ['INVALID_TYPE', ...CHECK_ERRORS],
          // Documented only: `/check/:md5/:type` (above) serves these paths.
          handler: () => () => undefined,
        }),
        deprecated: true,
      },
    },
  ]),
);
