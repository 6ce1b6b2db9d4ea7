import type { Logger } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { ConsoleBuildRepository } from './repositories/console-build.repository.js';
import { ConsoleSessionRepository } from './repositories/console-session.repository.js';
import { ConsoleSessionService } from './services/console-session.service.js';
import { GetConsoleService } from './services/get-console.service.js';
import type { DataSource } from 'typeorm';
import type { ShortenerConfig } from './config.js';
import type { ShortenerServices } from './endpoints/shortener.deps.js';
import { PasswordTriesRepository } from './repositories/password-tries.repository.js';
import { PendingVisitsRepository } from './repositories/pending-visits.repository.js';
import { PreviewCacheRepository } from './repositories/preview-cache.repository.js';
import { QrImageRepository } from './repositories/qr-image.repository.js';
import { RedirectCacheRepository } from './repositories/redirect-cache.repository.js';
import { ShortUrlRepository } from './repositories/short-url.repository.js';
import { ShortUrlTagsRepository } from './repositories/short-url-tags.repository.js';
import { VisitCountryRepository } from './repositories/visit-country.repository.js';
import { VisitTallyRepository } from './repositories/visit-tally.repository.js';
import { VisitRepository } from './repositories/visit.repository.js';
import { BulkCreateShortUrlsService } from './services/bulk-create-short-urls.service.js';
import { CreateShortUrlService } from './services/create-short-url.service.js';
import { DeleteShortUrlService } from './services/delete-short-url.service.js';
import { GetShortUrlQrService } from './services/get-short-url-qr.service.js';
import { GetShortUrlStatsService } from './services/get-short-url-stats.service.js';
import { GetShortUrlService } from './services/get-short-url.service.js';
import { ListShortUrlsService } from './services/list-short-urls.service.js';
import { ListTagsService } from './services/list-tags.service.js';
import { ExportLinksService } from './services/export-links.service.js';
import { LinkExportRepository } from './repositories/link-export.repository.js';
import { PreviewShortUrlService } from './services/preview-short-url.service.js';
import { redirectLinkLoader, RedirectShortUrlService } from './services/redirect-short-url.service.js';
import { UnlockShortUrlService } from './services/unlock-short-url.service.js';
import { UpdateShortUrlService } from './services/update-short-url.service.js';
import { VisitMoverService } from './services/visit-mover.service.js';
import { VisitSourceService } from './services/visit-source.service.js';
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

/** One service per endpoint (docs/architecture.md), and what main.ts starts and stops. */
export interface ShortenerContainer extends ShortenerServices {
  /** Started (subscribed) and stopped by the caller. */
  redirectCache: RedirectCacheRepository;
  /** This instance's tally of counted visits; started and stopped by the caller. */
  visitTally: VisitTallyRepository;
  /** Moves counted visits from Redis to MySQL; started and stopped by the caller. */
  visitMover: VisitMoverService;
}

/** A stand-in tally when counting is off (SHORTENER_COUNT_VISITS=false): nothing is kept. */
const NO_TALLY = { add: (): void => undefined };

/** The shortener's repositories and services, wired the one way main.ts and the tests share. */
export function createShortenerContainer(connections: ShortenerConnections): ShortenerContainer {
  const { config, logger, redis, subscriber, dataSource } = connections;
  const clock = connections.clock ?? (() => new Date());
  // Without a clock of the tests, no Date is made for each visit the tally counts.
  const now = connections.clock === undefined ? Date.now : (): number => clock().getTime();
  const baseUrl = config.urls.shortener;
  const repository = new ShortUrlRepository(dataSource);
  const tags = new ShortUrlTagsRepository(dataSource);
  const redirectCache = new RedirectCacheRepository({
    redis,
    subscriber,
    redisPrefix: config.redis.prefix,
    size: config.shortener.cacheSize,
    localTtlMs: config.shortener.localCacheTtlMs,
    redisTtlSeconds: config.shortener.redisCacheTtlSeconds,
    logger,
    load: redirectLinkLoader(repository),
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
  // Read at boot, so a missing or broken GEOIP_DB stops the process before it serves (ConfigError).
  const breakdown = config.shortener.visits.count && config.shortener.visits.breakdown;
  const countries = breakdown ? new VisitCountryRepository(config.shortener.visits.geoIpDb) : undefined;
  const visitSource = countries ? new VisitSourceService({ countries }) : undefined;
  // The rules' `country` reads the same database; without the breakdown it is read at the first such rule.
  let ruleCountries = countries;
  const countryOfAddress = {
    countryOf: (address: string) =>
      (ruleCountries ??= new VisitCountryRepository(config.shortener.visits.geoIpDb)).countryOf(address),
  };
  const visitTally = new VisitTallyRepository({
    pending: pendingVisits,
    flushMs: config.shortener.visits.flushMs,
    logger,
    now,
    ...(visitSource ? { describe: visitSource } : {}),
  });
  const visitMover = new VisitMoverService({
    pending: pendingVisits,
    visits,
    moveMs: config.shortener.visits.moveMs,
    logger,
    now,
  });
  const visitStats = new VisitStatsService({
    visits,
    pending: pendingVisits,
    now,
    // Previews show a total at most a few seconds old, and stay answered from memory meanwhile.
    previewTotalTtlMs: Math.min(5_000, config.shortener.localCacheTtlMs),
    previewTotalCacheSize: config.shortener.previewCacheSize,
  });
  const tally = config.shortener.visits.count ? visitTally : NO_TALLY;
  const redirectShortUrl = new RedirectShortUrlService({
    cache: redirectCache,
    repository,
    countries: countryOfAddress,
    tally,
    breakdown,
    baseUrl,
    clock,
  });
  const createShortUrl = new CreateShortUrlService({
    repository,
    cache: redirectCache,
    baseUrl,
    clock,
    ...(connections.generateCode ? { generateCode: connections.generateCode } : {}),
  });
  return {
    createShortUrl,
    bulkCreateShortUrls: new BulkCreateShortUrlsService({ createShortUrl }),
    listShortUrls: new ListShortUrlsService({ repository, tags, visitStats, baseUrl }),
    listTags: new ListTagsService({ tags }),
    exportLinks: new ExportLinksService({ repository: new LinkExportRepository(dataSource) }),
    getShortUrlQr: new GetShortUrlQrService({ entries: previews, images: new QrImageRepository(), baseUrl }),
    redirectShortUrl,
    unlockShortUrl: new UnlockShortUrlService({
      repository,
      passwordTries: new PasswordTriesRepository(redis, config.redis.prefix, logger),
      redirects: redirectShortUrl,
      baseUrl,
      clock,
    }),
    previewShortUrl: new PreviewShortUrlService({ previews, visitStats, baseUrl, clock }),
    getShortUrl: new GetShortUrlService({ repository, tags, visitStats, baseUrl, clock }),
    getShortUrlStats: new GetShortUrlStatsService({ repository, visitStats }),
    updateShortUrl: new UpdateShortUrlService({
      repository,
      tags,
      cache: redirectCache,
      previews,
      visitStats,
      baseUrl,
      clock,
    }),
    deleteShortUrl: new DeleteShortUrlService({ repository, cache: redirectCache, previews, pendingVisits }),
    getConsole: new GetConsoleService({ build: new ConsoleBuildRepository() }),
    consoleSession: new ConsoleSessionService({ sessions: new ConsoleSessionRepository(redis, config.redis.prefix) }),
    redirectCache,
    visitTally,
    visitMover,
  };
}
