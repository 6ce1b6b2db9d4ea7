import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import { shortenerOpenApi } from '@pawlink/contracts/openapi';
import { createServiceApp, HttpMetrics, type Logger, type Readiness, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { RequestListener } from 'node:http';
import { Counter } from 'prom-client';
import type { ShortenerConfig } from './config.js';
import type { ShortenerContainer } from './container.js';
import { createFastRedirect } from './handlers/fast-redirect.handler.js';
import { REDIRECT_STATUS, redirectCacheControl } from './handlers/send-redirect.js';
import { REDIRECT_ROUTE, registerShortUrlRoutes } from './routes/short-url.routes.js';
import { PRIVATE_TARGET_PREFIXES_LOCAL } from './validation/short-url.validation.js';

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

/** The shortener's Express app (API.md §2). It never listens; see createRequestHandler. */
export function createApp(deps: ShortenerAppDeps): Express {
  const { config } = deps;
  const base = createServiceApp({ service: 'shortener', ...deps, docs: { document: shortenerOpenApi, urls: config.urls, rateLimits: serviceRateLimits('shortener') } });
  // Before the `/:code` routes; `status` is a reserved code.
  registerGetStatusRoute(base.app, { service: 'shortener', guards: deps.guards, readOnly: deps.readOnly });
  base.app.locals[PRIVATE_TARGET_PREFIXES_LOCAL] = config.shortener.privateTargetPrefixes;
  registerShortUrlRoutes(base.app, {
    shortUrls: deps.services.shortUrls,
    guards: deps.guards,
    readOnly: deps.readOnly,
    redirectCacheControl: redirectCacheControl(config.shortener.redirectMaxAgeSeconds),
    logger: deps.logger,
  });
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
  const tryFastRedirect = createFastRedirect({
    cache: deps.services.redirectCache,
    tally: deps.config.shortener.visits.count ? deps.services.visitTally : null,
    now: deps.services.now,
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
