import type { ErrorName } from '../errors.js';
import { md5Schema } from '../md5.js';
import { THUMBNAIL_TYPES } from '../thumbs.js';
import { serviceDocument } from './document.js';
import { header } from './headers.js';
import { CALLBACK_URL_MAX_LENGTH, THUMBNAIL_CALLBACK_EVENTS } from '../thumb-callbacks.js';
import {
  empty,
  json,
  jsonBody,
  media,
  operation,
  pathParameter,
  queryParameter,
  type OperationSpec,
} from './operations.js';
import {
  INTERNAL,
  MOUNTED,
  MULTI_SEGMENT,
  type HeaderObject,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
  type PathItemObject,
  type ResponseObject,
} from './types.js';

const done: JsonSchema = {
  type: 'object',
  required: ['success', 'status', 'url'],
  properties: {
    success: { const: true },
    status: { const: 'done' },
    url: { type: 'string', format: 'uri', description: 'MEDIA_URL/<md5>.<type>' },
  },
  additionalProperties: false,
};

const processing: JsonSchema = {
  type: 'object',
  required: ['success', 'status', 'md5', 'checkURL', 'checkAt', 'time', 'startedAt'],
  properties: {
    success: { const: true },
    status: { const: 'processing' },
    md5: md5Schema(),
    checkURL: { type: 'string', format: 'uri', description: 'THUMBS_URL/check/<md5>/<type>' },
    checkAt: { type: 'integer', description: 'Unix ms when to ask again.' },
    time: { type: 'integer', minimum: 0, description: 'Milliseconds from now until checkAt.' },
    startedAt: { type: 'integer', description: 'Unix ms when the job was queued; the same in every answer about it.' },
    progress: { type: 'number', minimum: 0, maximum: 100 },
  },
  additionalProperties: false,
};

/** The body of a completion callback (docs/api.md, "Completion callbacks"). */
const callbackEvent: JsonSchema = {
  type: 'object',
  required: ['event', 'md5', 'type', 'url', 'code', 'error', 'at'],
  properties: {
    event: { enum: [...THUMBNAIL_CALLBACK_EVENTS] },
    md5: md5Schema(),
    type: { enum: [...THUMBNAIL_TYPES] },
    url: {
      type: ['string', 'null'],
      format: 'uri',
      description: 'MEDIA_URL/<md5>.<type> for thumbnail.done; null otherwise.',
    },
    code: {
      type: ['integer', 'null'],
      description: 'As GET /check answers the failure: 1060, 1065 or 1068; null for thumbnail.done.',
    },
    error: {
      type: ['string', 'null'],
      description: "The failure's message as GET /check answers it; null for thumbnail.done.",
    },
    at: { type: 'integer', description: 'Unix ms when the job ended.' },
  },
  additionalProperties: false,
};

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
      requestBody: jsonBody('What happened to the thumbnail.', callbackEvent),
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

const tags = ['thumbnails'];
const checkErrors: ErrorName[] = [
  'INVALID_MD5',
  'INVALID_TYPE',
  'CHECK_NOT_FOUND',
  'POST_NOT_ON_BOARD',
  'THUMBNAIL_ERROR',
  'THUMBNAIL_TIMEOUT',
  'UNKNOWN_ROUTE',
];
const key = { tags, access: { key: 'thumbs' as const } };
const id = pathParameter('id', 'A 32-hex MD5 (any case) or a decimal post id of the board.');
const type = pathParameter('type', 'The thumbnail format.', { enum: [...THUMBNAIL_TYPES] });
const noStore = { 'Cache-Control': header('Cache-Control', true) };
const poll = { ...noStore, 'Retry-After': header('Retry-After', true) };
const checkResponses = {
  '201': json('Done.', done, noStore),
  '200': json('Still processing; ask again at checkAt.', processing, poll),
};

const adminTags = ['admin'];
const ADMIN_QUEUES = '/admin/queues';
/** A relative redirect target: the admin pages redirect within the service (`res.redirect('/admin/…')`). */
const to = (path: string): HeaderObject => ({
  description: 'Where the browser goes next.',
  required: true,
  schema: { const: path },
});
const adminCookie = (description: string): HeaderObject => ({
  description,
  required: true,
  schema: { type: 'string', pattern: '^pawlink_admin=[^;]*; ' },
});
/** The login form's headers (a page without script, under `default-src 'none'`). */
const formHeaders = {
  'Content-Security-Policy': header('Content-Security-Policy', true),
  'Cache-Control': header('Cache-Control', true),
};
const loginForm = (description: string) => media(description, ['text/html'], formHeaders);
/** Express's redirect: a short "Redirecting to …" text or page, as the client's `Accept` prefers. */
const redirect = (description: string, headers: Record<string, HeaderObject>) =>
  media(description, ['text/plain', 'text/html'], headers);

const bullBoardAnswer: ResponseObject = {
  description:
    "bull-board's answer: its UI (HTML), its assets, or its API's JSON. `Cache-Control: no-store`, except bull-board's content-named bundles (`static/js|css/<name>.<hash>.js|css`): `private, max-age=31536000, immutable`.",
  headers: {
    'Content-Security-Policy': header('Content-Security-Policy'),
    'Cache-Control': header('Cache-Control', true),
  },
  content: {
    ...media('', ['text/html', 'text/javascript', 'application/javascript', 'text/css', 'image/*', 'font/*']).content,
    'application/json': {
      schema: { type: ['object', 'array'], description: "bull-board's own API (not Pawlink's `{success}` bodies)." },
    },
  },
};

/** bull-board's own refusal (`{error: {key}, message?}`), not a Pawlink failure. */
const bullBoardRefusal = (description: string): ResponseObject => ({
  description,
  headers: { 'Cache-Control': header('Cache-Control', true) },
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error'],
        properties: {
          error: { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^ERRORS\\.' } } },
          message: { type: 'string' },
        },
      },
    },
  },
});

/** One method of the dashboard: bull-board's own answers behind the admin guard (docs/api.md §4, "Operator pages"). */
function dashboardOperation(method: string, where: 'entry' | 'sub'): OperationObject {
  const spec: OperationSpec = {
    tags: adminTags,
    access: { key: 'admin' },
    operationId: `queueDashboard${where === 'entry' ? '' : 'Path'}${method[0]!.toUpperCase()}${method.slice(1)}`,
    summary:
      where === 'entry' ? 'The queue dashboard (bull-board)' : "The dashboard's pages, assets and API (bull-board)",
    rateLimit: 'thumbs.admin',
    description:
      'HTML for operators, not part of the bot API. An admin key in `Authorization`, or the session cookie of `/admin/login`. ' +
      'Every key in `Authorization` that is not an active, enabled key with the `admin` flag (unknown, inactive, disabled, or without the flag) gets the same 403 1022, ' +
      'and counts against the 30 invalid keys a minute of its address (then 429 1000, bucket `auth.invalid`, before any lookup). ' +
      'Without a key or a session, a browser navigation (GET preferring HTML) is sent to `/admin/login` and anything else gets 401 1013. ' +
      (method === 'get' ? '' : 'A cross-site request is refused with 403 1023. ') +
      'What bull-board answers is its own: its UI (`/`, `/queue/…`), its `static/…` assets and its JSON `api/…`. ' +
      (method === 'get'
        ? ''
        : 'Read-only unless `THUMBS_DASHBOARD_WRITE=true`: bull-board then answers 405 `ERRORS.QUEUE_READ_ONLY`; a job added or edited that is not a thumbnail job gets 400 `ERRORS.INVALID_REQUEST_BODY`.'),
    ...(where === 'sub'
      ? {
          parameters: [
            pathParameter('path', "A path of bull-board's (its UI's `queue/…`, `static/…`, `api/…`); spans segments."),
          ],
        }
      : {}),
    responses: {
      ...(method === 'delete' ? {} : { '200': bullBoardAnswer }),
      ...(method === 'get'
        ? {
            '303': redirect('A browser without a key or a live session: to the login form.', {
              Location: to('/admin/login'),
              'Cache-Control': header('Cache-Control', true),
            }),
          }
        : {}),
      ...(method === 'get'
        ? {}
        : {
            '204': empty("bull-board's answer without a body (with `THUMBS_DASHBOARD_WRITE`: a job retried, say).", {
              'Cache-Control': header('Cache-Control', true),
            }),
            '400': bullBoardRefusal(
              "bull-board's refusal of a bad body: with `THUMBS_DASHBOARD_WRITE`, a job added or edited that is not a thumbnail job.",
            ),
            '405': bullBoardRefusal(
              "bull-board's read-only refusal (`ERRORS.QUEUE_READ_ONLY`): the dashboard only shows unless `THUMBS_DASHBOARD_WRITE=true`.",
            ),
          }),
    },
    errors: [...(method === 'get' ? [] : (['CROSS_SITE_REQUEST'] as const)), 'UNKNOWN_ROUTE'],
  };
  return operation(spec);
}

/** bull-board's methods; DELETE reaches the guard too (the mount takes every method) and bull-board has no such route. */
const DASHBOARD_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** bull-board's own pages and API: documented for the tests' sake, not served as public API. */
const dashboard = (where: 'entry' | 'sub'): PathItemObject => ({
  [INTERNAL]: true,
  [MOUNTED]: ADMIN_QUEUES,
  ...(where === 'sub' ? { [MULTI_SEGMENT]: 'path' } : {}),
  ...Object.fromEntries(DASHBOARD_METHODS.map((method) => [method, dashboardOperation(method, where)])),
});

/** The operator pages (docs/api.md §4): the login form, logout, and the queue dashboard. */
const adminPaths: Record<string, PathItemObject> = {
  '/admin/login': {
    get: operation({
      tags: adminTags,
      access: 'public',
      usesDependencies: false,
      operationId: 'adminLoginForm',
      summary: 'The login form of the queue dashboard',
      responses: { '200': loginForm("The form (no script; CSP `default-src 'none'`).") },
    }),
    post: operation({
      tags: adminTags,
      access: 'public',
      rateLimit: 'thumbs.admin-login',
      readsBody: true,
      operationId: 'adminLogin',
      summary: 'Log in to the queue dashboard with an admin key',
      description:
        'A session cookie for a key with the `admin` flag, and a 303 to the dashboard. The key is checked as the dashboard checks one in `Authorization`: ' +
        'every key that is not an active, enabled admin key gets the same 403 1022, and the 30 invalid keys a minute per address apply (429 1000, bucket `auth.invalid`). ' +
        'A refused key is shown the form again with the reason (to a browser: `Accept` preferring HTML) or gets the code (JSON). A cross-site post is refused with 403 1023 before the key is looked at.',
      requestBody: jsonBody('The API key pasted in the form.', {
        type: 'object',
        required: ['key'],
        properties: { key: { type: 'string', minLength: 1, maxLength: 500 } },
      }),
      responses: {
        '303': redirect(
          'Logged in: to the dashboard, with the session cookie (HttpOnly, SameSite=Strict, Path=/admin).',
          {
            Location: to(`${ADMIN_QUEUES}/`),
            'Set-Cookie': adminCookie(
              'The session: `pawlink_admin=<token>; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=<THUMBS_ADMIN_SESSION_TTL_SECONDS>`.',
            ),
            'Cache-Control': header('Cache-Control', true),
          },
        ),
        '401': loginForm('To a browser: the form again with the reason (no key).'),
        '403': loginForm('To a browser: the form again with the reason (not an admin key, whatever is wrong with it).'),
        '429': loginForm(
          'To a browser: the form again with the reason, when its address presented too many invalid keys (too many attempts are answered in JSON).',
        ),
      },
      errors: ['CROSS_SITE_REQUEST', 'API_KEY_REQUIRED', 'MISSING_FLAG', 'RATE_LIMITED_ROUTE'],
    }),
  },
  '/admin/logout': {
    post: operation({
      tags: adminTags,
      access: 'public',
      operationId: 'adminLogout',
      summary: 'Log out of the queue dashboard',
      responses: {
        '303': redirect('The session is deleted and the cookie cleared: to the login form.', {
          Location: to('/admin/login'),
          'Set-Cookie': adminCookie('The cleared cookie (`Max-Age=0`).'),
          'Cache-Control': header('Cache-Control', true),
        }),
      },
      errors: ['CROSS_SITE_REQUEST'],
    }),
  },
  '/admin': {
    get: operation({
      tags: adminTags,
      access: 'public',
      usesDependencies: false,
      operationId: 'adminHome',
      summary: 'To the queue dashboard',
      responses: { '302': redirect('To the dashboard.', { Location: to(`${ADMIN_QUEUES}/`) }) },
    }),
  },
  [ADMIN_QUEUES]: dashboard('entry'),
  [`${ADMIN_QUEUES}/{path}`]: dashboard('sub'),
};

/** The thumbnail service (docs/api.md §4). */
export const thumbsOpenApi: OpenApiDocument = serviceDocument({
  service: 'thumbs',
  title: 'Pawlink thumbnails',
  description:
    'Animated GIF, WebP and MP4 (H.264) and still PNG thumbnails of image-board posts, made by the worker: ask with PUT, poll the check URL.',
  tags: [
    { name: 'thumbnails', description: 'Request thumbnails and follow their jobs.' },
    {
      name: 'admin',
      description:
        'Operator pages: the login of the queue dashboard (bull-board, at `/admin/queues/` for keys with the `admin` flag; its own pages and API are not part of this document). HTML for browsers, not part of the bot API.',
    },
  ],
  schemas: { ThumbnailDone: done, ThumbnailProcessing: processing, ThumbnailCallbackEvent: callbackEvent },
  paths: {
    ...adminPaths,
    '/check/{md5}/{type}': {
      get: operation({
        ...key,
        rateLimit: 'thumbs.check',
        readOnlyAffected: true,
        operationId: 'checkThumbnail',
        summary: 'The state of a thumbnail job',
        description: '`/check/<md5>/<type>`, or the two segments the other way round.',
        parameters: [
          pathParameter(
            'md5',
            "The MD5 of the post's file (32 hex digits, any case); the type when the two segments come the other way round.",
          ),
          pathParameter(
            'type',
            'The thumbnail format: `gif`, `png`, `webp` or `mp4`; the MD5 when the two segments come the other way round.',
          ),
        ],
        responses: checkResponses,
        errors: checkErrors,
      }),
    },
    // The original's order (`/check/<type>/<md5>`, what the yiffy client calls), one path per type:
    // a template `/check/{type}/{md5}` would be the same path as `/check/{md5}/{type}` to OpenAPI.
    ...Object.fromEntries(
      THUMBNAIL_TYPES.map((thumbnailType) => [
        `/check/${thumbnailType}/{md5}`,
        {
          get: {
            ...operation({
              ...key,
              rateLimit: 'thumbs.check',
              readOnlyAffected: true,
              operationId: `checkThumbnailLegacy${thumbnailType[0]!.toUpperCase()}${thumbnailType.slice(1)}`,
              summary: `The state of a ${thumbnailType} thumbnail job (the original's order; deprecated)`,
              description: `\`/check/${thumbnailType}/<md5>\`: the same as \`/check/<md5>/${thumbnailType}\`, kept for clients of the original server. New clients use /check/{md5}/{type}.`,
              parameters: [pathParameter('md5', "The MD5 of the post's file (32 hex digits, any case).")],
              responses: checkResponses,
              errors: checkErrors,
            }),
            deprecated: true,
          },
        },
      ]),
    ),
    '/{id}': {
      get: operation({
        ...key,
        rateLimit: 'thumbs.info',
        operationId: 'getThumbnails',
        summary: 'Which thumbnails exist for a post',
        parameters: [id],
        responses: {
          '200': json('The URLs, null where there is none yet.', {
            type: 'object',
            required: ['success', 'gifURL', 'pngURL', 'webpURL', 'mp4URL', 'thumbhash'],
            properties: {
              success: { const: true },
              gifURL: { type: ['string', 'null'], format: 'uri' },
              pngURL: { type: ['string', 'null'], format: 'uri' },
              webpURL: { type: ['string', 'null'], format: 'uri' },
              mp4URL: {
                type: ['string', 'null'],
                format: 'uri',
                description:
                  'H.264 MP4 (`video/mp4`) of the same clip as the GIF; one second of the still for a still image.',
              },
              thumbhash: {
                type: ['string', 'null'],
                contentEncoding: 'base64',
                description:
                  'ThumbHash of the still frame (a placeholder to show while the thumbnail loads); null until a thumbnail exists.',
              },
            },
            additionalProperties: false,
          }),
        },
        errors: ['INVALID_POST_ID', 'INVALID_MD5', 'BOARD_SHARE_USED', 'BOARD_UNAVAILABLE', 'UNKNOWN_ROUTE'],
      }),
    },
    '/{id}/{type}': {
      put: operation({
        ...key,
        rateLimit: 'thumbs.create',
        readOnlyAffected: true,
        readsBody: true,
        operationId: 'requestThumbnail',
        summary: 'Ask for a thumbnail',
        description:
          "Takes no body fields (one is 400 1017: `callbackURL` is a query parameter). One job per (md5, type), whoever asks. With `callbackURL`, the job's end is POSTed there (see the callback `thumbnailEnded`) unless the answer is 200.",
        parameters: [
          id,
          type,
          queryParameter(
            'callbackURL',
            `Where to POST when the job ends: an http or https URL of at most ${CALLBACK_URL_MAX_LENGTH} characters on a public address (else 422 code 1085 and nothing is queued). Each different URL given for one job gets its call.`,
            { type: 'string', format: 'uri', maxLength: CALLBACK_URL_MAX_LENGTH },
          ),
        ],
        responses: {
          '200': json('The file exists.', done, noStore),
          '202': json('Queued now or already queued; poll `checkURL` (also in `Location`).', processing, {
            ...poll,
            Location: header('Location', true),
          }),
        },
        errors: [
          'UNKNOWN_BODY_FIELD',
          'INVALID_POST_ID',
          'INVALID_MD5',
          'INVALID_TYPE',
          'POST_NOT_ON_BOARD',
          'BOARD_SHARE_USED',
          'BOARD_UNAVAILABLE',
          'THUMBNAIL_ERROR',
          'THUMBNAIL_TIMEOUT',
          'CALLBACK_URL_REFUSED',
          'UNKNOWN_ROUTE',
        ],
        callbacks: { thumbnailEnded },
      }),
    },
  },
});
