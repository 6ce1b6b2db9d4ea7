import { ApiKeyRepository, createAccessGuards } from '@pawlink/auth';
import { createServiceApp, HttpMetrics, requireParsedBody, requireWritable, type Logger, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { RequestListener } from 'node:http';
import { Counter } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { ShortenerConfig } from './config.js';
import { ShortUrlService } from './domain/short-url.service.js';
import { createFastRedirect } from './fast-redirect.js';
import { RedirectCache } from './redirect-cache.js';
import { createShortUrlHandler } from './routes/create-short-url.handler.js';
import { deleteShortUrlAliasHandler, deleteShortUrlHandler } from './routes/delete-short-url.handler.js';
import { getShortUrlHandler } from './routes/get-short-url.handler.js';
import { postOnlyHandler } from './routes/post-only.handler.js';
import { previewHandler } from './routes/preview.handler.js';
import { redirectHandler } from './routes/redirect.handler.js';
import { REDIRECT_STATUS, redirectCacheControl } from './routes/send-redirect.js';
import { undecodableCodeHandler } from './routes/undecodable-code.handler.js';
import { updateShortUrlHandler } from './routes/update-short-url.handler.js';
import { ShortUrlRepository } from './short-url.repository.js';

export interface ShortenerDeps {
  config: ShortenerConfig;
  logger: Logger;
  redis: Redis;
  /** `<DB_PREFIX>shortener`. */
  dataSource: DataSource;
  /** `<DB_PREFIX>auth`, for API keys. */
  authDataSource: DataSource;
  readOnly: ReadOnlySwitch;
  /** Started (subscribed) by the caller; see createRedirectCache. */
  cache: RedirectCache;
  clock?: () => Date;
  /** Random code source (default: 8 CSPRNG characters); tests inject collisions. */
  generateCode?: () => string;
  metrics?: HttpMetrics;
  startedAt?: number;
}

/** The redirect cache of one instance, loading misses from the shortener schema. */
export function createRedirectCache(deps: { config: ShortenerConfig; redis: Redis; subscriber: Redis; dataSource: DataSource; logger: Logger }): RedirectCache {
  const repository = new ShortUrlRepository(deps.dataSource);
  return new RedirectCache({
    redis: deps.redis,
    subscriber: deps.subscriber,
    redisPrefix: deps.config.redis.prefix,
    size: deps.config.shortener.cacheSize,
    localTtlMs: deps.config.shortener.localCacheTtlMs,
    redisTtlSeconds: deps.config.shortener.redisCacheTtlSeconds,
    logger: deps.logger,
    load: async (code) => (await repository.findByCode(code))?.url ?? null,
  });
}

/** The redirect route's pattern, which is also its `route` label in the HTTP metrics, fast path included. */
const REDIRECT_ROUTE = '/:code';

/** The shortener's Express app (API.md §2). It never listens; see createRequestHandler. */
export function createApp(deps: ShortenerDeps): Express {
  const { config, logger, readOnly } = deps;
  const service = new ShortUrlService({
    repository: new ShortUrlRepository(deps.dataSource),
    cache: deps.cache,
    baseUrl: config.urls.shortener,
    clock: deps.clock ?? (() => new Date()),
    ...(deps.generateCode ? { generateCode: deps.generateCode } : {}),
  });
  const guards = createAccessGuards({ service: 'shortener', apiKeys: new ApiKeyRepository(deps.authDataSource), redis: deps.redis, redisPrefix: config.redis.prefix, logger });
  const rateLimit = guards.rateLimit;
  const writable = requireWritable(readOnly);
  const key = guards.requireKey('shortener');

  const base = createServiceApp({
    service: 'shortener',
    logger,
    readOnly,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...(deps.startedAt !== undefined ? { startedAt: deps.startedAt } : {}),
  });
  const { app } = base;
  // Fixed words before the `/:code` patterns; the reserved-code policy keeps them out of use.
  app.post('/create', key, rateLimit('shortener.create'), writable, requireParsedBody, createShortUrlHandler(service));
  app.all('/create', postOnlyHandler);
  app.post('/delete', key, rateLimit('shortener.manage'), writable, requireParsedBody, deleteShortUrlAliasHandler(service));
  app.all('/delete', postOnlyHandler);
  app.get('/:code.json', key, rateLimit('shortener.read'), getShortUrlHandler(service));
  app.get('/:code\\+', previewHandler(service));
  app.get(REDIRECT_ROUTE, redirectHandler(service, redirectCacheControl(config.shortener.redirectMaxAgeSeconds)));
  app.patch('/:code', key, rateLimit('shortener.manage'), writable, requireParsedBody, updateShortUrlHandler(service));
  app.delete('/:code', key, rateLimit('shortener.manage'), writable, requireParsedBody, deleteShortUrlHandler(service));
  app.use(undecodableCodeHandler);
  return base.finalize();
}

/**
 * What the server runs (main.ts and tests alike): warm redirects answered before Express, the
 * rest by the app. Warm redirects are counted in the HTTP metrics under the redirect route's label,
 * as Express would have counted them.
 */
export function createRequestHandler(deps: ShortenerDeps): RequestListener {
  const metrics = deps.metrics ?? new HttpMetrics('shortener');
  const app = createApp({ ...deps, metrics });
  const hits = new Counter({
    name: 'shortener_fast_redirects_total',
    help: 'Redirects answered from the in-process cache without entering Express.',
    registers: [metrics.registry],
  });
  const tryFastRedirect = createFastRedirect(deps.cache, redirectCacheControl(deps.config.shortener.redirectMaxAgeSeconds), (method, seconds) => {
    hits.inc();
    metrics.observe(method, REDIRECT_ROUTE, REDIRECT_STATUS, seconds);
  });
  return (req, res) => {
    if (!tryFastRedirect(req, res)) app(req, res);
  };
}
