import type { Logger } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import type { ShortenerConfig } from './config.js';
import { PendingVisitsRepository } from './repositories/pending-visits.repository.js';
import { PreviewCacheRepository } from './repositories/preview-cache.repository.js';
import { RedirectCacheRepository } from './repositories/redirect-cache.repository.js';
import { ShortUrlRepository } from './repositories/short-url.repository.js';
import { VisitTallyRepository } from './repositories/visit-tally.repository.js';
import { VisitRepository } from './repositories/visit.repository.js';
import { linkOf, ShortUrlService } from './services/short-url.service.js';
import { VisitMoverService } from './services/visit-mover.service.js';
import { VisitStatsService } from './services/visit-stats.service.js';

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
  /** This instance's tally of counted visits, fed directly by the fast redirect path; started and stopped by the caller. */
  visitTally: VisitTallyRepository;
  /** Moves counted visits from Redis to MySQL; started and stopped by the caller. */
  visitMover: VisitMoverService;
  /** What the fast path compares expiry dates with (the service's clock). */
  now: () => number;
}

/** A stand-in tally when counting is off (SHORTENER_COUNT_VISITS=false): nothing is kept. */
const NO_TALLY = { add: (): void => undefined };

/** The shortener's repositories and services, wired the one way main.ts and the tests share. */
export function createShortenerContainer(connections: ShortenerConnections): ShortenerContainer {
  const { config, logger, redis, subscriber, dataSource } = connections;
  const clock = connections.clock ?? (() => new Date());
  const now = (): number => clock().getTime();
  const repository = new ShortUrlRepository(dataSource);
  const redirectCache = new RedirectCacheRepository({
    redis,
    subscriber,
    redisPrefix: config.redis.prefix,
    size: config.shortener.cacheSize,
    localTtlMs: config.shortener.localCacheTtlMs,
    redisTtlSeconds: config.shortener.redisCacheTtlSeconds,
    logger,
    load: async (code) => {
      const row = await repository.findByCode(code);
      return row ? linkOf(row) : null;
    },
  });
  const previews = new PreviewCacheRepository({
    size: config.shortener.previewCacheSize,
    ttlMs: config.shortener.localCacheTtlMs,
    load: (code) => repository.findByCode(code),
  });
  // Peers announce their edits and deletes on the redirect cache's channel; previews follow it.
  redirectCache.on('invalidated', (code: string) => previews.evict(code));
  redirectCache.on('reset', () => previews.clear());

  const pendingVisits = new PendingVisitsRepository(redis, config.redis.prefix);
  const visits = new VisitRepository(dataSource);
  const visitTally = new VisitTallyRepository({ pending: pendingVisits, flushMs: config.shortener.visits.flushMs, logger, now });
  const visitMover = new VisitMoverService({ pending: pendingVisits, visits, moveMs: config.shortener.visits.moveMs, logger, now });
  const visitStats = new VisitStatsService({
    visits,
    pending: pendingVisits,
    now,
    // Previews show a total at most a few seconds old, and stay answered from memory meanwhile.
    previewTotalTtlMs: Math.min(5_000, config.shortener.localCacheTtlMs),
    previewTotalCacheSize: config.shortener.previewCacheSize,
  });
  const shortUrls = new ShortUrlService({
    repository,
    cache: redirectCache,
    previews,
    tally: config.shortener.visits.count ? visitTally : NO_TALLY,
    visitStats,
    pendingVisits,
    baseUrl: config.urls.shortener,
    clock,
    ...(connections.generateCode ? { generateCode: connections.generateCode } : {}),
  });
  return { shortUrls, redirectCache, visitTally, visitMover, now };
}
