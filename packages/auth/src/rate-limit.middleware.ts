import type { ServiceName } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { Redis } from 'ioredis';
import type { RequestHandler, Response } from 'express';
import { apiKeyOf } from './api-key.middleware.js';
import { GLOBAL_RATE_LIMIT, RATE_LIMIT_BUCKETS, type RateLimitBucket, type RateLimitRule } from './rate-limit.policy.js';
import { RateLimiter, type WindowState } from './rate-limiter.js';

export interface RateLimitOptions {
  redis: Redis;
  /** REDIS_PREFIX; keys are `<prefix>ratelimit:...`. */
  redisPrefix: string;
  service: ServiceName;
  buckets?: Partial<Record<RateLimitBucket, RateLimitRule>>;
  global?: RateLimitRule;
}

function describe(bucket: string, rule: RateLimitRule, state: WindowState, now: number) {
  const remaining = Math.max(0, rule.limit - state.count);
  const resetAfter = state.resetInMs / 1000;
  return {
    limit: rule.limit,
    remaining,
    reset: Math.round((now + state.resetInMs) / 10) / 100,
    resetAfter: Math.round(resetAfter * 1000) / 1000,
    retryAfter: Math.max(1, Math.ceil(resetAfter)),
    bucket,
  };
}

function setHeaders(res: Response, info: ReturnType<typeof describe>, limited: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(info.limit),
    'X-RateLimit-Remaining': String(info.remaining),
    'X-RateLimit-Reset': String(info.reset),
    'X-RateLimit-Reset-After': String(info.resetAfter),
    'X-RateLimit-Bucket': info.bucket,
  };
  if (limited) headers['Retry-After'] = String(info.retryAfter);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  return headers;
}

/**
 * Route and global fixed-window limits per API key (per client IP when anonymous). Runs after
 * key authentication so a key's own overrides apply; 0 in an override means unlimited.
 */
export function createRateLimit(options: RateLimitOptions) {
  const limiter = new RateLimiter(options.redis, `${options.redisPrefix}ratelimit:`);
  const globalDefault = options.global ?? GLOBAL_RATE_LIMIT;

  return function rateLimit(bucket: RateLimitBucket): RequestHandler {
    const routeDefault = options.buckets?.[bucket] ?? RATE_LIMIT_BUCKETS[bucket];
    return async (req, res, next) => {
      const key = apiKeyOf(res);
      const identity = key ? `key:${key.id}` : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
      const routeRule = key?.rateLimitRoute != null ? { ...routeDefault, limit: key.rateLimitRoute } : routeDefault;
      const globalRule = key?.rateLimitGlobal != null ? { ...globalDefault, limit: key.rateLimitGlobal } : globalDefault;
      if (routeRule.limit === 0 && globalRule.limit === 0) {
        next();
        return;
      }
      const now = Date.now();
      const state = await limiter.hit(
        `${options.service}:${bucket}:${identity}`,
        routeRule.windowMs,
        `${options.service}:global:${identity}`,
        globalRule.windowMs,
      );
      const route = describe(bucket, routeRule, state.route, now);
      const global = describe('global', globalRule, state.global, now);
      if (globalRule.limit !== 0 && state.global.count > globalRule.limit) {
        const headers = setHeaders(res, global, true);
        res.setHeader('X-RateLimit-Global', 'true');
        throw new ApiError('RATE_LIMITED_GLOBAL', { info: { ...global, global: true }, headers: { ...headers, 'X-RateLimit-Global': 'true' } });
      }
      if (routeRule.limit !== 0 && state.route.count > routeRule.limit) {
        const headers = setHeaders(res, route, true);
        throw new ApiError('RATE_LIMITED_ROUTE', { info: { ...route, global: false }, headers });
      }
      setHeaders(res, routeRule.limit === 0 ? global : route, false);
      next();
    };
  };
}

export type RateLimit = ReturnType<typeof createRateLimit>;
