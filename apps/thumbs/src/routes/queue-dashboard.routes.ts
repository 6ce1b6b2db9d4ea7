import type { AccessGuards } from '@pawlink/auth';
import {
  empty,
  header,
  INTERNAL,
  media,
  MOUNTED,
  MULTI_SEGMENT,
  operation,
  pathParameter,
  type OperationObject,
  type OperationSpec,
  type PathItemObject,
  type ResponseObject,
} from '@pawlink/contracts/openapi';
import type { Queue } from 'bullmq';
import type { Express } from 'express';
import { ADMIN_TAGS } from '../endpoints/thumbs.deps.js';
import { requireAdmin } from '../guards/admin-access.guard.js';
import { refuseCrossSite } from '../guards/same-site.guard.js';
import { queueDashboardHandler } from '../handlers/queue-dashboard.handler.js';
import { ADMIN_LOGIN_PATH, noStore, redirect, to } from '../http/admin-pages.http.js';
import type { AdminSessionService } from '../services/admin-session.service.js';

/*
 * The queue dashboard (bull-board, mounted at /admin/queues behind the admin guard; docs/api.md §4,
 * "Operator pages"): not an endpoint of ours but a whole app's pages, assets and API, taking every
 * method. Its path objects are written here, beside its mount, for the tests' sake (the
 * route-drift check and the response validator); they are marked internal and never served.
 */

const ADMIN_QUEUES = '/admin/queues';

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
    tags: ADMIN_TAGS,
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
              Location: to(ADMIN_LOGIN_PATH),
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

/** The dashboard's two path objects: its entry and everything under it. */
export const queueDashboardPaths: Record<string, PathItemObject> = {
  [ADMIN_QUEUES]: dashboard('entry'),
  [`${ADMIN_QUEUES}/{path}`]: dashboard('sub'),
};

export interface QueueDashboardRouteDeps {
  guards: AccessGuards;
  adminSessions: AdminSessionService;
  /** The queues the dashboard shows: thumbnails, and the callback deliveries. */
  queues: Queue[];
  /** THUMBS_URL: its origin is the only one allowed to change anything here. */
  publicUrl: string;
  /** THUMBS_DASHBOARD_WRITE: the dashboard may change jobs (else bull-board's read-only mode). */
  dashboardWrite: boolean;
}

/**
 * bull-board at /admin/queues for keys with the `admin` flag (docs/operating.md, "The queue dashboard"); its
 * document is `endpoints/queue-dashboard.paths.ts`. Order: cross-site check → admin key (the API's
 * key check) or session → rate limit → bull-board.
 */
export function registerQueueDashboardRoute(app: Express, deps: QueueDashboardRouteDeps): void {
  app.use(
    '/admin/queues',
    noStore,
    refuseCrossSite(deps.publicUrl),
    requireAdmin(deps.adminSessions, deps.guards.verifyKey),
    deps.guards.rateLimit('thumbs.admin'),
    queueDashboardHandler(deps.queues, '/admin/queues', { write: deps.dashboardWrite }),
  );
}
