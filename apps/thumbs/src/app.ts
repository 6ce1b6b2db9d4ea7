import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import {
  createServiceApp,
  mountEndpoint,
  onlyMethods,
  type AnyEndpoint,
  type HttpMetrics,
  type Logger,
  type Readiness,
  type ReadOnlySwitch,
} from '@pawlink/service-kit';
import type { Queue } from 'bullmq';
import type { Express } from 'express';
import type { ThumbsConfig } from './config.js';
import type { ThumbsContainer } from './container.js';
import { ADMIN_ENDPOINTS, THUMBNAIL_ENDPOINTS } from './endpoints/thumbs.endpoints.js';
import { noStore } from './http/admin-pages.http.js';
import { thumbsOpenApi } from './openapi.js';
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

/**
 * Other methods on the operator pages' paths: 405 1025 with `Allow` (GET also allows HEAD), kept
 * by no cache, before the `/:id/:type` pattern could take them.
 */
function refuseOtherMethods(app: Express, endpoints: ReadonlyArray<AnyEndpoint<never>>): void {
  const methodsOf = new Map<string, string[]>();
  for (const { method, path } of endpoints) {
    const methods = methodsOf.get(path) ?? [];
    methods.push(...(method === 'get' ? ['GET', 'HEAD'] : [method.toUpperCase()]));
    methodsOf.set(path, methods);
  }
  for (const [path, methods] of methodsOf) app.all(path, noStore, onlyMethods(...methods));
}

/**
 * The thumbs HTTP API (docs/api.md, "Thumbnails"). Never listens; never renders anything itself.
 * Each endpoint is declared once in `endpoints/` (route, guards in order, fields, responses,
 * handler; docs/adr/0016) and mounted here; its document is generated from the same declarations.
 */
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
  const endpointDeps = { config, services, guards, readOnly };
  // The operator's pages, before the thumbnail endpoints, whose `/:id` and `/:id/:type` patterns would take their paths.
  for (const endpoint of ADMIN_ENDPOINTS) mountEndpoint(app, endpoint, endpointDeps);
  refuseOtherMethods(app, ADMIN_ENDPOINTS);
  registerQueueDashboardRoute(app, {
    guards,
    adminSessions: services.adminSessions,
    queues: deps.callbackQueue ? [deps.queue, deps.callbackQueue] : [deps.queue],
    publicUrl: config.urls.thumbs,
    dashboardWrite: config.thumbs.dashboardWrite,
  });
  // /check/... first, so its three segments never reach the /:id patterns.
  for (const endpoint of THUMBNAIL_ENDPOINTS) mountEndpoint(app, endpoint, endpointDeps);
  return service.finalize();
}
