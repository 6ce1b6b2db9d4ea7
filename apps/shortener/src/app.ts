import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import {
  createServiceApp,
  bodyLimitsOf,
  queryListsOf,
  HttpMetrics,
  labelRoute,
  mountEndpoint,
  telemetryHooks,
  type Logger,
  type Readiness,
  type ReadOnlySwitch,
} from '@pawlink/service-kit';
import type { Express } from 'express';
import type { RequestListener } from 'node:http';
import { Counter } from 'prom-client';
import type { ShortenerConfig } from './config.js';
import type { ShortenerContainer } from './container.js';
import { createLookupLimit } from './guards/lookup-limit.guard.js';
import { createRedirectFastLane } from './handlers/redirect-short-url-fast-lane.handler.js';
import { REDIRECT_STATUS, redirectCacheControl } from './http/send-redirect.http.js';
import { consoleSessionKey } from './http/console-session.http.js';
import { answerUndecodableCode } from './http/undecodable-code.http.js';
import { REDIRECT_ROUTE } from './endpoints/redirect-short-url.endpoint.js';
import { SHORTENER_ENDPOINTS } from './endpoints/shortener.endpoints.js';
import { shortenerOpenApi } from './openapi.js';

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
 * The shortener's Express app (docs/api.md). It never listens; see createRequestHandler. Each
 * endpoint is declared once in `endpoints/` (route, guards in order, fields, responses, handler;
 * docs/adr/0016) and mounted here; its document is generated from the same declarations. The
 * public redirect and preview have no key, and their rate limit counts only the requests that must
 * ask Redis or MySQL, per client IP.
 */
export function createApp(deps: ShortenerAppDeps): Express {
  const { config, guards, readOnly, services } = deps;
  const base = createServiceApp({
    service: 'shortener',
    ...deps,
    docs: {
      document: shortenerOpenApi,
      urls: config.urls,
      rateLimits: serviceRateLimits('shortener'),
      pages: [
        {
          title: 'Console',
          path: 'console/',
          description:
            'for link owners: sign in with an API key to see, create, edit and share your links and chart their visits.',
        },
      ],
    },
    // The endpoints whose bodies may be larger than BODY_LIMIT_BYTES (POST /create/bulk).
    bodyLimits: bodyLimitsOf(SHORTENER_ENDPOINTS),
    // The query parameters declared as lists (`GET /links?tag=a&tag=b`).
    queryLists: queryListsOf(SHORTENER_ENDPOINTS),
  });
  const app = base.app;
  // Before the `/:code` routes; `status` is a reserved code.
  registerGetStatusRoute(app, { service: 'shortener', guards, readOnly });
  const endpointDeps = {
    config,
    logger: deps.logger,
    services,
    guards,
    readOnly,
    limitLookups: createLookupLimit(guards.rateLimit('shortener.lookup'), deps.logger),
  };
  // A console request's session cookie stands for its key, before any endpoint's key guard reads it.
  app.use(consoleSessionKey(() => services.consoleSession));
  // Fixed words before the `/:code` patterns (SHORTENER_ENDPOINTS is in that order); the reserved-code policy keeps them out of use.
  for (const endpoint of SHORTENER_ENDPOINTS) mountEndpoint(app, endpoint, endpointDeps);
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
  // With tracing on, a warm redirect's span is named by its route too (Express never saw it).
  const traced = telemetryHooks() !== undefined;
  return (req, res) => {
    if (!tryFastRedirect(req, res)) app(req, res);
    else if (traced) labelRoute(req, REDIRECT_ROUTE);
  };
}
