import { apiKeyOf } from '@pawlink/auth';
import { ThumbnailCallbackEventSchema } from '@pawlink/contracts';
import { jsonBody } from '@pawlink/contracts/openapi';
import { inPath, inQuery, parsedBody, rateLimit, requireKey, writable } from '@pawlink/service-kit';
import { postRequesterOf } from '../http/post-requester.http.js';
import {
  doneAnswer,
  doneBody,
  failureError,
  processingAnswer,
  processingBody,
  rethrowBoardUnavailable,
  setPollHeaders,
} from '../http/thumbnail-responses.http.js';
import { callbackUrl, thumbnailId, thumbnailType } from './thumbnail.fields.js';
import { THUMBNAIL_TAGS, thumbsEndpoint } from './thumbs.deps.js';

/**
 * The callback of `PUT /:id/:type?callbackURL=` (docs/api.md, "Completion callbacks"): the POST the
 * worker makes to the client's URL when the job ends. It carries no API key, so its operation says
 * `security: []` (Redocly's `security-defined`).
 */
const thumbnailEnded = {
  '{$request.query.callbackURL}': {
    post: {
      operationId: 'thumbnailEnded',
      summary: 'The job ended: done, failed or timed out',
      description:
        "One POST per callback URL registered for the job, when it ends, in the Standard Webhooks format (standardwebhooks.com): verify `webhook-signature` with any Standard Webhooks library and the key's `whsec_` secret before trusting the body (docs/api.md shows how); `X-Pawlink-Signature` is the legacy signature, kept. " +
        'Answer any 2xx within 5 s; otherwise the call is tried again about 10 s, 1 min, 3 min and 10 min after the first attempt (5 attempts), each signed afresh with the same `webhook-id`. Redirects are not followed. 410 ends the delivery and disables the URL for the deliveries registered before it.',
      parameters: [
        {
          name: 'webhook-id',
          in: 'header' as const,
          required: true,
          description: "The event's id, the same on every attempt: `evt_<md5>_<type>_<unix ms>-<n>`.",
          schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}_[a-z0-9]+_[0-9]+-[0-9]+$' },
        },
        {
          name: 'webhook-timestamp',
          in: 'header' as const,
          required: true,
          description: 'Unix seconds of this attempt.',
          schema: { type: 'string', pattern: '^[0-9]+$' },
        },
        {
          name: 'webhook-signature',
          in: 'header' as const,
          required: true,
          description:
            '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the secret\'s bytes>`; two, space-separated, while a rotation keeps the previous secret signing.',
          schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$' },
        },
        {
          name: 'X-Pawlink-Signature',
          in: 'header' as const,
          required: true,
          description:
            'Legacy (kept): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the API key\'s webhook secret as text>`.',
          schema: { type: 'string', pattern: '^t=[0-9]+,v1=[0-9a-f]{64}$' },
        },
      ],
      requestBody: jsonBody('What happened to the thumbnail.', ThumbnailCallbackEventSchema),
      // Our call to the client: it carries no API key (the body is signed: webhook-signature).
      security: [],
      responses: {
        '2XX': { description: 'Received; never sent again.' },
        '410': {
          description: 'Gone: never sent again, and the URL is disabled for the deliveries registered before it.',
        },
        '4XX': { description: 'Not taken: tried again later, up to 5 attempts in all (as any other non-2xx answer).' },
      },
    },
  },
};

/**
 * PUT /:id/:type[?callbackURL=] (docs/api.md, "Thumbnails"): key → rate limit → read-only → body →
 * validation (no body field, 1017; the id, 1062 / 1063, before the type, 1064; then the callback
 * URL's form, 1085) → handler: 200 when the file exists, else 202 with the (new or existing) job's
 * estimate. PUT takes no body, but one that cannot be read is still refused (1026/1027).
 */
export const createThumbnailEndpoint = thumbsEndpoint({
  operationId: 'requestThumbnail',
  summary: 'Ask for a thumbnail',
  description:
    "Takes no body fields (one is 400 1017: `callbackURL` is a query parameter). One job per (md5, type), whoever asks. With `callbackURL`, the job's end is POSTed there (see the callback `thumbnailEnded`) unless the answer is 200.",
  tags: THUMBNAIL_TAGS,
  method: 'put',
  path: '/:id/:type',
  guards: [requireKey('thumbs'), rateLimit('thumbs.create'), writable(), parsedBody()],
  // A `callbackURL` sent in the body would otherwise be ignored (it is a query parameter).
  onlyBodyFieldsOf: 'PUT /:id/:type',
  fields: { id: inPath(thumbnailId()), type: inPath(thumbnailType()), callbackURL: inQuery(callbackUrl()) },
  responses: {
    200: doneAnswer('The file exists.'),
    202: processingAnswer('Queued now or already queued; poll `checkURL` (also in `Location`).', { location: true }),
  },
  errors: [
    'POST_NOT_ON_BOARD',
    'BOARD_SHARE_USED',
    'BOARD_UNAVAILABLE',
    'THUMBNAIL_ERROR',
    'THUMBNAIL_TIMEOUT',
    'UNKNOWN_ROUTE',
  ],
  callbacks: { thumbnailEnded },
  handler:
    ({ services }) =>
    async ({ input: { id, type, callbackURL }, req, res }) => {
      const apiKey = apiKeyOf(res);
      // Every thumbs route requires a key, so a callback always has one to be signed with.
      const callback = callbackURL && apiKey ? { url: callbackURL, apiKeyId: apiKey.id } : undefined;
      const state = await services.createThumbnail
        .request(id, type, postRequesterOf(req, res), callback)
        .catch(rethrowBoardUnavailable);
      res.setHeader('Cache-Control', 'no-store');
      if (state.status === 'failed' || state.status === 'notOnBoard') throw failureError(state);
      if (state.status === 'done') return { status: 200, body: doneBody(state) };
      setPollHeaders(res, state, true);
      return { status: 202, body: processingBody(state) };
    },
});
