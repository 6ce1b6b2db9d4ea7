import { SERVICES, type ServiceName } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { LeasedQuotasRepository, QuotaUse } from '../repositories/leased-quotas.repository.js';
import type { RateLimitWindows, WeightedRateLimitWindows, WindowState } from '../repositories/rate-limit.repository.js';
import type { InvalidKeyAllowance } from '../services/api-key.service.js';
import type { RateLimitStatus } from '../services/get-status.service.js';
import {
  GLOBAL_RATE_LIMIT,
  INVALID_KEY_RATE_LIMIT,
  type RateLimitBucket,
  type RateLimitRule,
} from '../domain/rate-limit.policy.js';
import { apiKeyOf } from './api-key.guard.js';

export interface RateLimitOptions<B extends string> {
  /** Where the windows are counted (Redis, or this process while Redis is down). */
  windows: RateLimitWindows;
  /** The blocks of the windows this instance leased (docs/adr/0021); over `windows`. */
  quotas: LeasedQuotasRepository;
  service: ServiceName;
  /** The route buckets by name (the production policy unless a test brings its own). */
  buckets: Record<B, RateLimitRule>;
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

const clientIp = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** Who a request's windows belong to: its key, or its client IP when anonymous. */
const identityOf = (req: Request, res: Response): string => {
  const key = apiKeyOf(res);
  return key ? `key:${key.id}` : `ip:${clientIp(req)}`;
};

/** A rule with the key's own override applied (0 in an override means unlimited). */
const withOverride = (rule: RateLimitRule, override: number | null | undefined): RateLimitRule =>
  override != null ? { ...rule, limit: override } : rule;

/** The route and global rules of a request, with its key's overrides, and the identity they count for. */
function rulesOf(req: Request, res: Response, routeDefault: RateLimitRule, globalDefault: RateLimitRule) {
  const key = apiKeyOf(res);
  return {
    identity: identityOf(req, res),
    routeRule: withOverride(routeDefault, key?.rateLimitRoute),
    globalRule: withOverride(globalDefault, key?.rateLimitGlobal),
  };
}

/** The 429 (1001) of a full global window, with its headers. */
function globalLimitReached(res: Response, global: ReturnType<typeof describe>): ApiError {
  const headers = setHeaders(res, global, true);
  res.setHeader('X-RateLimit-Global', 'true');
  return new ApiError('RATE_LIMITED_GLOBAL', {
    info: { ...global, global: true },
    headers: { ...headers, 'X-RateLimit-Global': 'true' },
  });
}

/** The buckets a service's `/status` lists: its own (`<service>.…`), and those of no service (`status`). */
export function bucketsOfService(service: ServiceName, names: readonly string[]): string[] {
  return names.filter((name) => {
    const owner = name.split('.')[0] ?? '';
    return owner === service || !(SERVICES as readonly string[]).includes(owner);
  });
}

/**
 * Route and global fixed-window limits per API key (per client IP when anonymous). Runs after
 * key authentication so a key's own overrides apply; 0 in an override means unlimited.
 */
export function createRateLimit<B extends string = RateLimitBucket>(options: RateLimitOptions<B>) {
  const globalDefault = options.global ?? GLOBAL_RATE_LIMIT;

  return function rateLimit(bucket: B): RequestHandler {
    const routeDefault = options.buckets[bucket];
    return async (req, res, next) => {
      const { identity, routeRule, globalRule } = rulesOf(req, res, routeDefault, globalDefault);
      if (routeRule.limit === 0 && globalRule.limit === 0) {
        next();
        return;
      }
      // A window without a limit is not counted at all. The identity is the windows' hash tag, so
      // on a Redis Cluster a lease of both is one call (and the identities spread over the cluster).
      const routeKey = windowKey(options.service, bucket, identity);
      const [globalUse, routeUse] = await Promise.all([
        takeUnit(options.quotas, windowKey(options.service, 'global', identity), globalRule),
        takeUnit(options.quotas, routeKey, routeRule),
      ]);
      const now = Date.now();
      if (globalUse && !globalUse.taken) {
        // The route's unit is this instance's again: the request was not let through.
        if (routeUse?.taken) options.quotas.giveBack(routeKey, 1);
        throw globalLimitReached(res, describe('global', globalRule, globalUse.state, now));
      }
      if (routeUse && !routeUse.taken) {
        const route = describe(bucket, routeRule, routeUse.state, now);
        const headers = setHeaders(res, route, true);
        throw new ApiError('RATE_LIMITED_ROUTE', { info: { ...route, global: false }, headers });
      }
      setHeaders(
        res,
        routeUse
          ? describe(bucket, routeRule, routeUse.state, now)
          : describe('global', globalRule, globalUse!.state, now),
        false,
      );
      next();
    };
  };
}

/** One unit of a window with a limit; none to take (undefined) in a window without one. */
function takeUnit(
  quotas: LeasedQuotasRepository,
  key: string,
  rule: RateLimitRule,
): QuotaUse | Promise<QuotaUse> | undefined {
  return rule.limit === 0 ? undefined : quotas.take({ key, windowMs: rule.windowMs, limit: rule.limit });
}

/**
 * The window of one bucket (or `global`) for one identity. The identity is the hash tag: one script
 * counts the route and global windows of a request, so on a Redis Cluster they share a slot.
 */
function windowKey(service: string, bucket: string, identity: string): string {
  return `${service}:${bucket}:{${identity}}`;
}

export type RateLimit<B extends string = RateLimitBucket> = ReturnType<typeof createRateLimit<B>>;

/**
 * What the request's identity has left in every bucket of the service and the global window,
 * read without counting a hit (`GET /status`). Runs after key authentication, like the limit.
 */
export function createRateLimitStatus<B extends string = RateLimitBucket>(options: RateLimitOptions<B>) {
  const globalDefault = options.global ?? GLOBAL_RATE_LIMIT;
  const names = bucketsOfService(options.service, Object.keys(options.buckets)) as B[];

  return async function rateLimitStatus(req: Request, res: Response): Promise<Record<string, RateLimitStatus>> {
    const key = apiKeyOf(res);
    const identity = identityOf(req, res);
    const rules: Array<[string, RateLimitRule]> = [
      ['global', withOverride(globalDefault, key?.rateLimitGlobal)],
      ...names.map((name): [string, RateLimitRule] => [name, withOverride(options.buckets[name], key?.rateLimitRoute)]),
    ];
    const keys = rules.map(([name]) => windowKey(options.service, name, identity));
    const states = await options.windows.peek(keys);
    const now = Date.now();
    const result: Record<string, RateLimitStatus> = {};
    rules.forEach(([name, rule], i) => {
      const state = states[i] ?? { count: 0, resetInMs: 0 };
      const open = state.resetInMs > 0;
      // What this instance holds unspent is not spent: the key can still be served it here.
      const spent = Math.max(0, state.count - options.quotas.heldOf(keys[i]!));
      result[name] = {
        limit: rule.limit === 0 ? null : rule.limit,
        remaining: rule.limit === 0 ? null : Math.max(0, rule.limit - (open ? spent : 0)),
        reset: open ? Math.round((now + state.resetInMs) / 10) / 100 : null,
        resetAfter: open ? Math.round(state.resetInMs) / 1000 : null,
        windowSeconds: rule.windowMs / 1000,
      };
    });
    return result;
  };
}

export type RateLimitStatusReader = ReturnType<typeof createRateLimitStatus>;

export interface InvalidKeyLimitOptions {
  windows: RateLimitWindows;
  service: ServiceName;
  rule?: RateLimitRule;
}

/**
 * How many unknown API keys one client IP may have looked up per window (bucket `auth.invalid`).
 * Key authentication `take`s a slot before it looks up a key it does not already trust — counted
 * atomically, so 300 concurrent made-up keys cost exactly `limit` lookups — and gives it back
 * (`refund`) when the key turns out valid, so valid keys never use up the allowance of an address.
 * Past the limit the answer is 429 code 1000, before the database is asked.
 */
export function createInvalidKeyLimit(options: InvalidKeyLimitOptions): InvalidKeyAllowance<Response> {
  const bucket = 'auth.invalid';
  const rule = options.rule ?? INVALID_KEY_RATE_LIMIT;
  const keyOf = (req: Request): string => `${options.service}:${bucket}:ip:${clientIp(req)}`;

  return {
    async take(res: Response): Promise<void> {
      if (rule.limit === 0) return;
      const [state] = (await options.windows.hit([{ key: keyOf(res.req), windowMs: rule.windowMs }])) as [WindowState];
      if (state.count <= rule.limit) return;
      const info = describe(bucket, rule, state, Date.now());
      const headers = setHeaders(res, info, true);
      throw new ApiError('RATE_LIMITED_ROUTE', {
        message: 'Too many invalid API keys from this address; try again later.',
        info: { ...info, global: false },
        headers,
      });
    },
    async refund(res: Response): Promise<void> {
      if (rule.limit === 0) return;
      await options.windows.refund(keyOf(res.req));
    },
  };
}

/** 422 1086: a request of `units` that the bucket could not hold even in an empty window. */
function aboveBucketLimit(bucket: string, rule: RateLimitRule, units: number): ApiError {
  const windowSeconds = rule.windowMs / 1000;
  return new ApiError('BULK_ABOVE_RATE_LIMIT', {
    message: `This request has ${units} items, but the key's bucket ${bucket} allows ${rule.limit} per ${windowSeconds} s: send at most ${rule.limit} items a request. Nothing was done.`,
    extra: { bucket, limit: rule.limit, windowSeconds, units, maxItems: rule.limit },
  });
}

export interface WeightedRateLimitOptions<B extends string> extends RateLimitOptions<B> {
  windows: RateLimitWindows & WeightedRateLimitWindows;
}

/**
 * The route limit for a request that stands for several units of its bucket (a bulk create: one
 * per item; `unitsOf` reads them from the validated request), all or nothing: the request takes
 * its units of the route window and one of the global window only when both have room for them,
 * and is otherwise refused whole with 429 (1000, or 1001 when the global window is full) and the
 * same headers and `info` as any 429, taking nothing, so what is left stays usable by a smaller one.
 */
export function createWeightedRateLimit<B extends string = RateLimitBucket>(options: WeightedRateLimitOptions<B>) {
  const globalDefault = options.global ?? GLOBAL_RATE_LIMIT;

  return function weightedRateLimit(bucket: B, unitsOf: (req: Request) => number): RequestHandler {
    const routeDefault = options.buckets[bucket];
    return async (req, res, next) => {
      const { identity, routeRule, globalRule } = rulesOf(req, res, routeDefault, globalDefault);
      if (routeRule.limit === 0 && globalRule.limit === 0) {
        next();
        return;
      }
      const units = unitsOf(req);
      // The one place where a cost above the bucket's whole limit is decided: it can never fit, so
      // it is 422 1086 at once, taking nothing, never a 429 whose Retry-After cannot be met.
      if (routeRule.limit !== 0 && units > routeRule.limit) throw aboveBucketLimit(bucket, routeRule, units);
      // Units this instance holds are spent first; the rest are taken from the shared windows, all
      // or nothing, and the held ones are put back when the request does not fit.
      const parts = [
        { name: bucket as string, key: windowKey(options.service, bucket, identity), rule: routeRule, units },
        { name: 'global', key: windowKey(options.service, 'global', identity), rule: globalRule, units: 1 },
      ]
        .filter((part) => part.rule.limit !== 0)
        .map((part) => {
          const held = options.quotas.withdraw(part.key, part.units);
          return { ...part, held, shared: part.units - held };
        });
      const fromShared = parts.filter((part) => part.shared > 0);
      const { taken, states } = await options.windows.takeIfFits(
        fromShared.map((part) => ({
          key: part.key,
          windowMs: part.rule.windowMs,
          units: part.shared,
          limit: part.rule.limit,
        })),
      );
      if (!taken) for (const part of parts) options.quotas.giveBack(part.key, part.held);
      const now = Date.now();
      const described = parts.map((part) => {
        const at = fromShared.indexOf(part);
        const sharedState = at === -1 ? undefined : states[at];
        if (sharedState) options.quotas.saw(part.key, sharedState.count);
        const state = sharedState
          ? {
              count: Math.max(0, sharedState.count - options.quotas.heldOf(part.key)),
              resetInMs: sharedState.resetInMs,
            }
          : options.quotas.seenOf(part.key);
        const full = sharedState !== undefined && sharedState.count + part.shared > part.rule.limit;
        return { part, full, info: describe(part.name, part.rule, state, now) };
      });
      const route = described.find(({ part }) => part.name === bucket);
      const global = described.find(({ part }) => part.name === 'global');
      if (!taken && global?.full) throw globalLimitReached(res, global.info);
      if (!taken && route) {
        const headers = setHeaders(res, route.info, true);
        const message = `You have been rate limited on this route: this request needs ${units} of the ${route.info.remaining} left in bucket ${bucket} (${routeRule.limit} per ${routeRule.windowMs / 1000} s); nothing was done.`;
        throw new ApiError('RATE_LIMITED_ROUTE', { message, info: { ...route.info, global: false }, headers });
      }
      setHeaders(res, (route ?? global)!.info, false);
      next();
    };
  };
}
