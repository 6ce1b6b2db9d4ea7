import type { ApiKeyFlag } from '@pawlink/contracts';
import { ApiError, type Logger } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import type { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { hashApiKey } from '../services/secrets.js';
import type { InvalidKeyLimit } from './rate-limit.guard.js';

const KEY_SYNTAX = /^[\x21-\x7e]{1,200}$/;
const TOUCH_INTERVAL_MS = 60_000;

/** The key presented as `Authorization: <key>` or `Authorization: Bearer <key>`; undefined when absent. */
export function presentedKey(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') return undefined;
  const value = header.trim();
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  return (bearer?.[1] ?? value).trim();
}

/** The authenticated key of this request, when one was presented. */
export const apiKeyOf = (res: Response): ApiKey | undefined => res.locals.apiKey as ApiKey | undefined;

export interface ApiKeyAuthOptions {
  repository: ApiKeyRepository;
  logger?: Logger;
  /** How long a looked-up key is trusted before asking the database again. */
  cacheTtlMs?: number;
  /** Limits invalid keys per client IP; without it, invalid keys are only answered 1010. */
  invalidKeyLimit?: InvalidKeyLimit;
}

/**
 * Builds the key middlewares. Lookups are cached briefly in process (keys are checked on every
 * protected request); a disable or revoke takes effect within `cacheTtlMs`.
 */
export function createApiKeyAuth(options: ApiKeyAuthOptions) {
  const ttl = options.cacheTtlMs ?? 2_000;
  const cache = new Map<string, { key: ApiKey | null; expires: number }>();
  const lastTouched = new Map<number, number>();

  async function lookup(key: string, req: Request, res: Response): Promise<ApiKey | null> {
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = cache.get(hash);
    if (hit?.key && hit.expires > now) return hit.key;
    // A key we do not already trust: an address that keeps presenting bad ones is stopped here.
    await options.invalidKeyLimit?.check(req, res);
    if (hit && hit.expires > now) return hit.key;
    const found = await options.repository.findByKey(key);
    if (cache.size > 10_000) cache.clear();
    cache.set(hash, { key: found, expires: now + ttl });
    return found;
  }

  function touch(key: ApiKey): void {
    const now = Date.now();
    if ((lastTouched.get(key.id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    lastTouched.set(key.id, now);
    options.repository.touch(key.id, new Date(now)).catch((error: unknown) => options.logger?.warn('could not record key use', { error }));
  }

  async function authenticate(req: Request, res: Response, required: boolean, flag?: ApiKeyFlag): Promise<void> {
    const presented = presentedKey(req);
    if (presented === undefined) {
      if (required) throw new ApiError('API_KEY_REQUIRED');
      return;
    }
    let key: ApiKey | null = null;
    if (KEY_SYNTAX.test(presented)) key = await lookup(presented, req, res);
    else await options.invalidKeyLimit?.check(req, res);
    if (!key) {
      await options.invalidKeyLimit?.record(req);
      throw new ApiError('INVALID_API_KEY');
    }
    if (!key.active) throw new ApiError('INACTIVE_API_KEY');
    if (key.disabled) throw new ApiError('DISABLED_API_KEY', { extra: { reason: key.disabledReason ?? 'No reason was given.' } });
    if (flag && !key.flags.includes(flag)) throw new ApiError('MISSING_FLAG');
    res.locals.apiKey = key;
    touch(key);
  }

  return {
    /** 1013 without a key; 1010/1011/1012 for a bad one; 1022 without `flag`. */
    requireApiKey(flag?: ApiKeyFlag): RequestHandler {
      return async (req, res, next) => {
        await authenticate(req, res, true, flag);
        next();
      };
    },
    /** Anonymous requests pass; a presented key must still be valid. */
    optionalApiKey(): RequestHandler {
      return async (req, res, next) => {
        await authenticate(req, res, false);
        next();
      };
    },
  };
}

export type ApiKeyAuth = ReturnType<typeof createApiKeyAuth>;
