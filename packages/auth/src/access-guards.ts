import type { ApiKeyFlag, ServiceName } from '@pawlink/contracts';
import type { BaseConfig, Logger, ServiceRuntime } from '@pawlink/service-kit';
import { authDatabase } from './db/auth.database.js';
import type { ApiKey } from './db/entities/api-key.entity.js';
import type { Request, RequestHandler, Response } from 'express';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { createApiKeyGuards } from './guards/api-key.guard.js';
import {
  createInvalidKeyLimit,
  createRateLimit,
  createRateLimitStatus,
  createWeightedRateLimit,
} from './guards/rate-limit.guard.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { LeasedQuotasRepository } from './repositories/leased-quotas.repository.js';
import { LocalRateLimitWindows, RedisRateLimitWindows } from './repositories/rate-limit.repository.js';
import { ResilientRateLimitWindows } from './repositories/resilient-rate-limit-windows.repository.js';
import { ApiKeyService } from './services/api-key.service.js';
import type { RateLimitStatus } from './services/get-status.service.js';
import { RATE_LIMIT_BUCKETS, type RateLimitBucket, type RateLimitRule } from './domain/rate-limit.policy.js';
import { createKeyUsage, type KeyUsageCounter } from './usage.js';

/** The guards a route table puts first, in this order: key, then rate limit. */
export interface AccessGuards<B extends string = RateLimitBucket> {
  /** 1013 without a key; 1010/1011/1012 for a bad one; 1022 without `flag`. */
  readonly requireKey: (flag?: ApiKeyFlag) => RequestHandler;
  /** Anonymous requests pass; a presented key must still be valid (and is then what is limited). */
  readonly optionalKey: () => RequestHandler;
  /**
   * For pages that must not tell keys apart (thumbs' admin pages): `presented` when it is an
   * active, enabled key with `flag`. Any other key, unknown or not, gets the same 403 1022 and
   * uses up a slot of the address's invalid-key limit (bucket `auth.invalid`, answered 429 before
   * any lookup once spent); keys are looked up through the same cache as `requireKey`.
   */
  readonly verifyKey: (presented: string, flag: ApiKeyFlag, req: Request, res: Response) => Promise<ApiKey>;
  /**
   * The route bucket and the global window, per key, or per client IP when anonymous. With `units`
   * (read from the validated request), the request takes that many units of the bucket, all or
   * nothing: refused whole with 429 when they do not fit in what is left (a bulk create's items).
   */
  readonly rateLimit: (bucket: B, options?: WeightedRateLimitUse) => RequestHandler;
  /** What the request's key (or IP) has left in each bucket of the service and globally, counting nothing. */
  readonly limits: (req: Request, res: Response) => Promise<Record<string, RateLimitStatus>>;
  /** Per-key usage, when counted: `GET /status` then shows a key its own. */
  readonly usage?: KeyUsageCounter;
}

/** A route whose request stands for several units of its bucket. */
export interface WeightedRateLimitUse {
  units: (req: Request) => number;
}

export interface AccessGuardsOptions<B extends string = RateLimitBucket> {
  service: ServiceName;
  apiKeys: ApiKeyRepository;
  redis: RedisClient;
  redisPrefix: string;
  logger: Logger;
  /** How long a looked-up key is trusted before the database is asked again. */
  keyCacheTtlMs?: number;
  /** The production policy (`rate-limit.policy.ts`) unless a test brings its own. */
  limits?: { buckets?: Record<B, RateLimitRule>; global?: RateLimitRule; invalidKeys?: RateLimitRule };
  /** Counts every request with an accepted key (from `createKeyUsage`); none when absent. */
  usage?: KeyUsageCounter;
}

/** The API keys of `<DB_PREFIX>auth`, opened through the runtime. */
export async function openApiKeys(runtime: Pick<ServiceRuntime<BaseConfig>, 'dataSource'>): Promise<ApiKeyRepository> {
  return new ApiKeyRepository(await runtime.dataSource({ ...authDatabase, poolSize: 5 }));
}

/**
 * The guards of a service process: keys from `<DB_PREFIX>auth` (opened through the runtime unless
 * given), limits in `redis`, per-key usage counted and flushed until shutdown (which flushes it).
 */
export async function openAccessGuards(
  runtime: Pick<ServiceRuntime<BaseConfig>, 'config' | 'logger' | 'dataSource' | 'onShutdown'>,
  service: ServiceName,
  redis: RedisClient,
  keys?: ApiKeyRepository,
): Promise<AccessGuards> {
  const apiKeys = keys ?? (await openApiKeys(runtime));
  const usage = createKeyUsage({
    service,
    redis,
    redisPrefix: runtime.config.redis.prefix,
    dataSource: apiKeys.dataSource,
    logger: runtime.logger,
  });
  usage.start();
  runtime.onShutdown(() => usage.stop());
  return createAccessGuards({
    service,
    apiKeys,
    redis,
    redisPrefix: runtime.config.redis.prefix,
    logger: runtime.logger,
    usage,
  });
}

/** The one wiring of API keys and rate limits every service uses. */
export function createAccessGuards<B extends string = RateLimitBucket>(
  options: AccessGuardsOptions<B>,
): AccessGuards<B> {
  const { service, redis, redisPrefix, logger } = options;
  const windows = new ResilientRateLimitWindows(
    new RedisRateLimitWindows(redis, `${redisPrefix}ratelimit:`),
    new LocalRateLimitWindows(),
    logger,
  );
  const keyCheck = new ApiKeyService<Response>(options.apiKeys, {
    logger,
    ...(options.keyCacheTtlMs !== undefined ? { cacheTtlMs: options.keyCacheTtlMs } : {}),
    invalidKeys: createInvalidKeyLimit({
      windows,
      service,
      ...(options.limits?.invalidKeys ? { rule: options.limits.invalidKeys } : {}),
    }),
  });
  const usage = options.usage;
  const keys = createApiKeyGuards(keyCheck, usage ? (key, req) => usage.count(key.id, req) : undefined);
  const limitOptions = {
    windows,
    quotas: new LeasedQuotasRepository({ windows }),
    service,
    buckets: options.limits?.buckets ?? (RATE_LIMIT_BUCKETS as Record<B, RateLimitRule>),
    ...(options.limits?.global ? { global: options.limits.global } : {}),
  };
  const rateLimit = createRateLimit<B>(limitOptions);
  const weightedRateLimit = createWeightedRateLimit<B>(limitOptions);
  const limits = createRateLimitStatus<B>(limitOptions);
  return {
    requireKey: (flag) => keys.requireApiKey(flag),
    optionalKey: () => keys.optionalApiKey(),
    verifyKey: keys.verifyKey,
    rateLimit: (bucket, weighted) => (weighted ? weightedRateLimit(bucket, weighted.units) : rateLimit(bucket)),
    limits,
    ...(options.usage ? { usage: options.usage } : {}),
  };
}
