import type { Logger } from '@pawlink/service-kit';
import type { Request } from 'express';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { PendingUsageRepository } from './repositories/pending-usage.repository.js';
import { UsageTallyRepository } from './repositories/usage-tally.repository.js';
import { UsageRepository } from './repositories/usage.repository.js';
import { KeyUsageService } from './services/key-usage.service.js';
import { MAX_ROUTE_LABEL, publicRouteLabel, usageField } from './domain/usage-count.rules.js';
import { UsageMoverService } from './services/usage-mover.service.js';

export interface KeyUsageOptions {
  service: string;
  redis: RedisClient;
  redisPrefix: string;
  /** `<DB_PREFIX>auth`, migrated. */
  dataSource: DataSource;
  logger: Logger;
  /** How often this process's tally goes to Redis (default 1 s). */
  flushMs?: number;
  /** How often Redis's counts are moved to MySQL (default 60 s). */
  moveMs?: number;
  now?: () => number;
}

/** The route a request matched, as its pattern in docs/api.md's form (`GET /:category`), never the raw URL. */
export function routeLabelOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  const path = typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : req.baseUrl || '(no route)';
  return publicRouteLabel(`${req.method} ${path}`).slice(0, MAX_ROUTE_LABEL);
}

/**
 * The usage field of a request, kept per route object and method: the hot path then reuses one
 * string instead of building (and hashing) a new one per request. Routes of mounted routers
 * (a `baseUrl`) are labelled afresh each time.
 */
function fieldCache(service: string): (req: Request) => string {
  const byRoute = new WeakMap<object, Map<string, string>>();
  return (req) => {
    const route = req.route as object | undefined;
    if (!route || req.baseUrl !== '') return usageField(service, routeLabelOf(req));
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map<string, string>()));
    let field = byMethod.get(req.method);
    if (field === undefined) byMethod.set(req.method, (field = usageField(service, routeLabelOf(req))));
    return field;
  };
}

/**
 * Per-key usage of one service process, on service-kit's counting (as the shortener's visits):
 * requests with a valid key counted in memory (`count`), flushed to Redis every `flushMs`
 * (`flusher`), moved to MySQL every `moveMs` by any instance (`mover`); `reader` answers a key's
 * days. `start` / `stop` follow the process (stop flushes and moves what is pending).
 */
export function createKeyUsage(options: KeyUsageOptions) {
  const now = options.now ?? Date.now;
  const pending = new PendingUsageRepository(options.redis, options.redisPrefix);
  const usage = new UsageRepository(options.dataSource);
  const flusher = new UsageTallyRepository({ pending, flushMs: options.flushMs ?? 1_000, logger: options.logger, now });
  const mover = new UsageMoverService({
    pending,
    usage,
    moveMs: options.moveMs ?? 60_000,
    logger: options.logger,
    now,
  });
  const fieldOf = fieldCache(options.service);
  const reader = new KeyUsageService({ usage, pending, unflushedOf: (keyId) => flusher.unflushedOf(keyId), now });
  return {
    service: options.service,
    /** One request of `keyId` to the route `req` matched. */
    count(keyId: number, req: Request): void {
      flusher.add(keyId, fieldOf(req));
    },
    reader,
    /** This process's tally, sent to Redis every `flushMs`. */
    flusher,
    mover,
    start(): void {
      flusher.start();
      mover.start();
    },
    /** Sends the tally to Redis, then a last move to MySQL. */
    async stop(): Promise<void> {
      await flusher.stop();
      await mover.stop();
    },
  };
}

export type KeyUsageCounter = ReturnType<typeof createKeyUsage>;
