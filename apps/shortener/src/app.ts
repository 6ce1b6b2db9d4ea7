import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import { BULK_CREATE_BODY_MAX_BYTES } from '@pawlink/contracts';
import { shortenerOpenApi } from '@pawlink/contracts/openapi';
import { createServiceApp, HttpMetrics, type Logger, type Readiness, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { RequestListener } from 'node:http';
import { Counter } from 'prom-client';
import type { ShortenerConfig } from './config.js';
import type { ShortenerContainer } from './container.js';
import { createLookupLimit } from './guards/lookup-limit.guard.js';
import { createRedirectFastLane } from './handlers/redirect-short-url-fast-lane.handler.js';
import { REDIRECT_STATUS, redirectCacheControl } from './http/send-redirect.http.js';
import { answerUndecodableCode } from './http/undecodable-code.http.js';
import { registerBulkCreateShortUrlsRoute } from './routes/bulk-create-short-urls.routes.js';
import { registerCreateShortUrlRoute } from './routes/create-short-url.routes.js';
import { registerDeleteShortUrlRoute } from './routes/delete-short-url.routes.js';
import { registerGetShortUrlQrRoute } from './routes/get-short-url-qr.routes.js';
import { registerGetShortUrlStatsRoute } from './routes/get-short-url-stats.routes.js';
import { registerGetShortUrlRoute } from './routes/get-short-url.routes.js';
import { registerListShortUrlsRoute } from './routes/list-short-urls.routes.js';
import { registerPreviewShortUrlRoute } from './routes/preview-short-url.routes.js';
import { REDIRECT_ROUTE, registerRedirectShortUrlRoute } from './routes/redirect-short-url.routes.js';
import { registerUpdateShortUrlRoute } from './routes/update-short-url.routes.js';
import { PRIVATE_TARGET_PREFIXES_LOCAL } from './validation/short-url-fields.validation.js';

export interface ShortenerAppDeps {
  config: ShortenerConfig;
  logger: Logger;
  services: ShortenerContainer;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  metrics?: HttpMetrics;
  startedAt?: number;
  /** What `/ready` asks: the runtime's dependencies. */
  readiness?: Readiness;
}

/**
 * The shortener's Express app (docs/api.md). It never listens; see createRequestHandler. Every
 * route's order on the route is key → rate limit → read-only → body → validation → handler; the
 * public redirect and preview have no key, and their rate limit counts only the requests that must
 * ask Redis or MySQL, per client IP.
 */
export function createApp(deps: ShortenerAppDeps): Express {
  const { config, guards, readOnly, services } = deps;
  const base = createServiceApp({
    service: 'shortener',
    ...deps,
    docs: { document: shortenerOpenApi, urls: config.urls, rateLimits: serviceRateLimits('shortener') },
    // 100 items at their longest do not fit in BODY_LIMIT_BYTES (100 KiB by default); no other body grows so.
    bodyLimits: { 'POST /create/bulk': BULK_CREATE_BODY_MAX_BYTES },
  });
  const app = base.app;
  // Before the `/:code` routes; `status` is a reserved code.
  registerGetStatusRoute(app, { service: 'shortener', guards, readOnly });
  app.locals[PRIVATE_TARGET_PREFIXES_LOCAL] = config.shortener.privateTargetPrefixes;
  const limitLookups = createLookupLimit(guards.rateLimit('shortener.lookup'), deps.logger);
  // Fixed words before the `/:code` patterns; the reserved-code policy keeps them out of use.
  registerCreateShortUrlRoute(app, { createShortUrl: services.createShortUrl, guards, readOnly });
  registerBulkCreateShortUrlsRoute(app, { bulkCreateShortUrls: services.bulkCreateShortUrls, guards, readOnly });
  registerListShortUrlsRoute(app, { listShortUrls: services.listShortUrls, guards });
  registerDeleteShortUrlRoute(app, { deleteShortUrl: services.deleteShortUrl, guards, readOnly });
  registerGetShortUrlRoute(app, { getShortUrl: services.getShortUrl, guards });
  registerGetShortUrlStatsRoute(app, { getShortUrlStats: services.getShortUrlStats, guards });
  registerGetShortUrlQrRoute(app, { getShortUrlQr: services.getShortUrlQr, limitLookups });
  registerPreviewShortUrlRoute(app, { previewShortUrl: services.previewShortUrl, limitLookups });
  registerRedirectShortUrlRoute(app, {
    redirectShortUrl: services.redirectShortUrl,
    limitLookups,
    redirectCacheControl: redirectCacheControl(config.shortener.redirectMaxAgeSeconds),
  });
  registerUpdateShortUrlRoute(app, { updateShortUrl: services.updateShortUrl, guards, readOnly });
  app.use(answerUndecodableCode);
  return base.finalize();
}

/**
 * What the server runs (main.ts and tests alike): warm redirects answered before Express, the
 * rest by the app. Warm redirects are counted in the HTTP metrics under the redirect route's label,
 * as Express would have counted them.
 */
export function createRequestHandler(deps: ShortenerAppDeps): RequestListener {
  const metrics = deps.metrics ?? new HttpMetrics('shortener');
  const app = createApp({ ...deps, metrics });
  let fastRedirects = 0;
  new Counter({
    name: 'shortener_fast_redirects_total',
    help: 'Redirects answered from the in-process cache without entering Express.',
    registers: [metrics.registry],
    // counted as a plain number on the hot path, handed over when scraped
    collect() {
      this.reset();
      this.inc(fastRedirects);
    },
  });
  const tryFastRedirect = createRedirectFastLane({
    redirects: deps.services.redirectShortUrl,
    countVisits: deps.config.shortener.visits.count,
    breakdown: deps.config.shortener.visits.breakdown,
    trustProxy: deps.config.trustProxy,
    cacheControl: redirectCacheControl(deps.config.shortener.redirectMaxAgeSeconds),
    onRedirect: (method, seconds) => {
      fastRedirects += 1;
      metrics.observe(method, REDIRECT_ROUTE, REDIRECT_STATUS, seconds);
    },
  });
  return (req, res) => {
    if (!tryFastRedirect(req, res)) app(req, res);
  };
}
