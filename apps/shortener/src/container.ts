import type { Logger } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import type { ShortenerConfig } from './config.js';
import { PreviewCacheRepository } from './repositories/preview-cache.repository.js';
import { RedirectCacheRepository } from './repositories/redirect-cache.repository.js';
import { ShortUrlRepository } from './repositories/short-url.repository.js';
import { ShortUrlService } from './services/short-url.service.js';

export interface ShortenerConnections {
  config: ShortenerConfig;
  logger: Logger;
  redis: RedisClient;
  /** A connection of its own for the cache's invalidation channel (a subscribed connection runs nothing else). */
  subscriber: RedisClient;
  /** `<DB_PREFIX>shortener`. */
  dataSource: DataSource;
  clock?: () => Date;
  /** Random code source (default: 8 CSPRNG characters); tests inject collisions. */
  generateCode?: () => string;
}

export interface ShortenerContainer {
  shortUrls: ShortUrlService;
  /** Started (subscribed) by the caller; read directly by the fast redirect path. */
  redirectCache: RedirectCacheRepository;
}

/** The shortener's repositories and services, wired the one way main.ts and the tests share. */
export function createShortenerContainer(connections: ShortenerConnections): ShortenerContainer {
  const { config, logger, redis, subscriber, dataSource } = connections;
  const repository = new ShortUrlRepository(dataSource);
  const redirectCache = new RedirectCacheRepository({
    redis,
    subscriber,
    redisPrefix: config.redis.prefix,
    size: config.shortener.cacheSize,
    localTtlMs: config.shortener.localCacheTtlMs,
    redisTtlSeconds: config.shortener.redisCacheTtlSeconds,
    logger,
    load: async (code) => (await repository.findByCode(code))?.url ?? null,
  });
  const previews = new PreviewCacheRepository({
    size: config.shortener.previewCacheSize,
    ttlMs: config.shortener.localCacheTtlMs,
    load: (code) => repository.findByCode(code),
  });
  // Peers announce their edits and deletes on the redirect cache's channel; previews follow it.
  redirectCache.on('invalidated', (code: string) => previews.evict(code));
  redirectCache.on('reset', () => previews.clear());
  const shortUrls = new ShortUrlService({
    repository,
    cache: redirectCache,
    previews,
    baseUrl: config.urls.shortener,
    clock: connections.clock ?? (() => new Date()),
    ...(connections.generateCode ? { generateCode: connections.generateCode } : {}),
  });
  return { shortUrls, redirectCache };
}
