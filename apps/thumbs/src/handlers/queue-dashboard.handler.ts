import { createBullBoard } from '@bull-board/api';
import { THUMBNAIL_CALLBACK_QUEUE } from '@pawlink/contracts';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';
import { dashboardAddProblem, thumbnailPayloadProblem, withoutStackTraces } from '../domain/dashboard-job.rules.js';
import { DashboardPageAdapter } from '../views/queue-dashboard.page.js';

/**
 * bull-board's own scripts and styles are served from here; inline styles are its React UI's.
 * Its web font is not loaded (no third-party host; DashboardPageAdapter leaves its stylesheet
 * out of the page): the UI falls back to system fonts.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * bull-board's bundles are named by their content (`static/js/main.f10757109b.js`): the browser
 * may keep them, a shared cache may not. Every other answer keeps the route's `no-store`.
 */
const VERSIONED_ASSET = /^\/static\/(?:js|css)\/(?:[\w-]+\/)*[\w-]+\.[0-9a-f]{8,}\.(?:js|css)$/;
export const VERSIONED_ASSET_CACHE = 'private, max-age=31536000, immutable';

const ADD_ROUTE = '/api/queues/:queueName/add';
const UPDATE_DATA_ROUTE = '/api/queues/:queueName/:jobId/update-data';

export interface QueueDashboardOptions {
  /** THUMBS_DASHBOARD_WRITE: add, clean, empty, pause… from the dashboard; else it only shows. */
  write: boolean;
}

/**
 * The queue dashboard (bull-board) for `queues`, mounted at `basePath`: its UI, assets and API.
 * Read-only unless `write` (bull-board's read-only mode: no action is shown, and every request
 * that is not a GET is refused 405 `ERRORS.QUEUE_READ_ONLY`). With `write`, a job added or
 * edited must be a thumbnail job. Failure details never show a stack trace.
 */
export function queueDashboardHandler(
  queues: Queue[],
  basePath: string,
  options: QueueDashboardOptions,
): RequestHandler {
  const serverAdapter = new DashboardPageAdapter();
  serverAdapter.setBasePath(basePath);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: !options.write })),
    serverAdapter,
    options: {
      uiConfig: { boardTitle: 'Pawlink thumbnails' },
      handlerHooks: {
        before({ method, route, request }) {
          if (!options.write && method !== 'get')
            return { allow: false, status: 405, errorKey: 'ERRORS.QUEUE_READ_ONLY' };
          // Deliveries are made by the worker from a job's end, signed per attempt: retry or clean them, never write one.
          const writesJob = route === ADD_ROUTE || route === UPDATE_DATA_ROUTE;
          if (writesJob && (request.params as { queueName?: string }).queueName === THUMBNAIL_CALLBACK_QUEUE) {
            return {
              allow: false,
              status: 400,
              errorKey: 'ERRORS.INVALID_REQUEST_BODY',
              message: 'Callback deliveries are queued by the worker only.',
            };
          }
          const problem =
            route === ADD_ROUTE
              ? dashboardAddProblem(request.body)
              : route === UPDATE_DATA_ROUTE
                ? thumbnailPayloadProblem((request.body as { jobData?: unknown } | undefined)?.jobData)
                : undefined;
          return problem === undefined
            ? { allow: true }
            : {
                allow: false,
                status: 400,
                errorKey: 'ERRORS.INVALID_REQUEST_BODY',
                message: `Not a thumbnail job: ${problem}`,
              };
        },
        after: (_context, result) => ({ ...result, body: withoutStackTraces(result.body) as typeof result.body }),
      },
    },
  });
  const board = serverAdapter.getRouter() as RequestHandler & { disable?: (setting: string) => void };
  board.disable?.('x-powered-by');
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if ((req.method === 'GET' || req.method === 'HEAD') && VERSIONED_ASSET.test(req.path))
      res.setHeader('Cache-Control', VERSIONED_ASSET_CACHE);
    board(req, res, next);
  };
}
