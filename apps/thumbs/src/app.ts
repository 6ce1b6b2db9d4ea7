import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import { thumbsOpenApi } from '@pawlink/contracts/openapi';
import {
  createServiceApp,
  type HttpMetrics,
  type Logger,
  type Readiness,
  type ReadOnlySwitch,
} from '@pawlink/service-kit';
import type { Queue } from 'bullmq';
import type { Express } from 'express';
import type { ThumbsConfig } from './config.js';
import type { ThumbsContainer } from './container.js';
import { registerAdminLoginRoute } from './routes/admin-login.routes.js';
import { registerAdminLogoutRoute } from './routes/admin-logout.routes.js';
import { registerCheckThumbnailRoute } from './routes/check-thumbnail.routes.js';
import { registerCreateThumbnailRoute } from './routes/create-thumbnail.routes.js';
import { registerGetThumbnailInfoRoute } from './routes/get-thumbnail-info.routes.js';
import { registerQueueDashboardRoute } from './routes/queue-dashboard.routes.js';

export interface ThumbsAppDeps {
  config: ThumbsConfig;
  logger: Logger;
  readOnly: ReadOnlySwitch;
  /** Key and rate-limit guards from `createAccessGuards({ service: 'thumbs', … })`. */
  guards: AccessGuards;
  services: Pick<
    ThumbsContainer,
    'thumbnailInfo' | 'createThumbnail' | 'checkThumbnail' | 'adminLogin' | 'adminLogout' | 'adminSessions'
  >;
  /** The thumbnail queue, for the dashboard at /admin/queues. */
  queue: Queue;
  /** The worker's callback deliveries, shown next to it. */
  callbackQueue?: Queue;
  metrics?: HttpMetrics;
  /** Process start (unix ms), for `/online`'s uptime. */
  startedAt?: number;
  /** What `/ready` asks: the runtime's dependencies. */
  readiness?: Readiness;
}

/** The thumbs HTTP API (docs/api.md, "Thumbnails"). Never listens; never renders anything itself. */
export function createApp(deps: ThumbsAppDeps): Express {
  const { config, guards, readOnly, services } = deps;
  const service = createServiceApp({
    service: 'thumbs',
    ...deps,
    docs: { document: thumbsOpenApi, urls: config.urls, rateLimits: serviceRateLimits('thumbs') },
  });
  const { app } = service;
  // Before `/:id`, which would take `/status` for a post id.
  registerGetStatusRoute(app, { service: 'thumbs', guards, readOnly });
  // The operator's pages, before the thumbnail routes, whose `/:id` and `/:id/:type` patterns would take their paths.
  const publicUrl = config.urls.thumbs;
  registerAdminLoginRoute(app, {
    guards,
    adminLogin: services.adminLogin,
    publicUrl,
    secureCookie: config.thumbs.adminCookieSecure,
  });
  registerAdminLogoutRoute(app, {
    adminLogout: services.adminLogout,
    publicUrl,
    secureCookie: config.thumbs.adminCookieSecure,
  });
  registerQueueDashboardRoute(app, {
    guards,
    adminSessions: services.adminSessions,
    queues: deps.callbackQueue ? [deps.queue, deps.callbackQueue] : [deps.queue],
    publicUrl,
    dashboardWrite: config.thumbs.dashboardWrite,
  });
  // /check/... is registered first so its three segments never reach the /:id routes.
  registerCheckThumbnailRoute(app, { guards, readOnly, checkThumbnail: services.checkThumbnail });
  registerGetThumbnailInfoRoute(app, { guards, thumbnailInfo: services.thumbnailInfo });
  registerCreateThumbnailRoute(app, { guards, readOnly, createThumbnail: services.createThumbnail });
  return service.finalize();
}
