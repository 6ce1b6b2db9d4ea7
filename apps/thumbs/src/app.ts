import { registerStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import { thumbsOpenApi } from '@pawlink/contracts/openapi';
import { createServiceApp, type HttpMetrics, type Logger, type Readiness, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Queue } from 'bullmq';
import type { Express } from 'express';
import type { ThumbsConfig } from './config.js';
import type { ThumbsContainer } from './container.js';
import { registerAdminRoutes } from './routes/admin.routes.js';
import { registerThumbnailRoutes } from './routes/thumbnail.routes.js';

export interface ThumbsAppDeps {
  config: ThumbsConfig;
  logger: Logger;
  readOnly: ReadOnlySwitch;
  /** Key and rate-limit guards from `createAccessGuards({ service: 'thumbs', … })`. */
  guards: AccessGuards;
  services: Pick<ThumbsContainer, 'thumbnails' | 'admin'>;
  /** The thumbnail queue, for the dashboard at /admin/queues. */
  queue: Queue;
  metrics?: HttpMetrics;
  /** Process start (unix ms), for `/online`'s uptime. */
  startedAt?: number;
  /** What `/ready` asks: the runtime's dependencies. */
  readiness?: Readiness;
}

/** The thumbs HTTP API (API.md §4). Never listens; never renders anything itself. */
export function createApp(deps: ThumbsAppDeps): Express {
  const service = createServiceApp({ service: 'thumbs', ...deps, docs: { document: thumbsOpenApi, urls: deps.config.urls, rateLimits: serviceRateLimits('thumbs') } });
  // Before `/:id`, which would take `/status` for a post id.
  registerStatusRoute(service.app, { service: 'thumbs', guards: deps.guards, readOnly: deps.readOnly });
  registerAdminRoutes(service.app, {
    guards: deps.guards,
    admin: deps.services.admin,
    queue: deps.queue,
    publicUrl: deps.config.urls.thumbs,
    secureCookie: deps.config.thumbs.adminCookieSecure,
    dashboardWrite: deps.config.thumbs.dashboardWrite,
  });
  registerThumbnailRoutes(service.app, { guards: deps.guards, readOnly: deps.readOnly, thumbnails: deps.services.thumbnails });
  return service.finalize();
}
