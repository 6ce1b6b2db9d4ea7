import type { ApiKeyFlag } from '@pawlink/contracts';
import { ApiError, unavailableDependencyOf, type Logger } from '@pawlink/service-kit';
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
  /** How long a looked-up key is trusted before asking the database again: a revoke or disable takes effect within it. */
  cacheTtlMs?: number;
  /**
   * How long a key that was valid keeps working while the database cannot be asked (an outage),
   * counted from its last successful lookup: the longest a key revoked just before an outage can
   * outlive its revocation. Past it, requests with the key get 503 1004 until the database is back.
   */
  staleTtlMs?: number;
  /** Limits unknown keys per client IP; without it, invalid keys are only answered 1010. */
  invalidKeyLimit?: InvalidKeyLimit;
  /** Called for every request whose key is accepted (per-key usage); must stay cheap. */
  onAccepted?: (key: ApiKey, req: Request) => void;
}

interface Checked {
  key: ApiKey | null;
  checkedAt: number;
}

/** Keys remembered per kind; past it the least recently checked go first. */
const MAX_REMEMBERED = 10_000;

/**
 * Builds the key middlewares. Lookups are cached briefly in process (keys are checked on every
 * protected request); a disable or revoke takes effect within `cacheTtlMs`. A key seen valid is
 * trusted: it never counts against the invalid-key limit of its address (for `verifyKey`: a key
 * it would let in), and it keeps working through a database outage of up to `staleTtlMs`.
 */
export function createApiKeyAuth(options: ApiKeyAuthOptions) {
  const freshMs = options.cacheTtlMs ?? 2_000;
  const staleMs = options.staleTtlMs ?? 10 * 60_000;
  const valid = new Map<string, Checked>();
  const invalid = new Map<string, Checked>();
  const lastTouched = new Map<number, number>();

  const remember = (hash: string, checked: Checked): void => {
    const store = checked.key ? valid : invalid;
    (checked.key ? invalid : valid).delete(hash);
    store.delete(hash);
    if (store.size >= MAX_REMEMBERED) store.delete(store.keys().next().value as string);
    store.set(hash, checked);
  };

  /**
   * The key stored for `presented` (null when none), cached. `accepts` says which keys the caller
   * will let in: a key it would refuse is counted against the address's invalid-key allowance
   * like an unknown one, and only a key it accepts gives its slot back.
   */
  async function lookup(presented: string, req: Request, res: Response, accepts: (key: ApiKey) => boolean): Promise<ApiKey | null> {
    const hash = hashApiKey(presented);
    const now = Date.now();
    const trusted = valid.get(hash);
    const age = trusted ? now - trusted.checkedAt : Infinity;
    if (trusted && age >= staleMs) valid.delete(hash);
    // Only valid keys are remembered in `valid`.
    const known = trusted && age < staleMs ? trusted.key : null;
    const knownAccepted = known !== null && accepts(known);
    if (known && age < freshMs) {
      if (!knownAccepted) await options.invalidKeyLimit?.take(req, res);
      return known;
    }
    // A key this instance does not already trust (for this use) uses up the address's allowance for unknown keys.
    if (!knownAccepted) await options.invalidKeyLimit?.take(req, res);
    const rejected = invalid.get(hash);
    if (rejected && now - rejected.checkedAt < freshMs) return null;
    let found: ApiKey | null;
    try {
      found = await options.repository.findByKey(presented);
    } catch (error) {
      // Through a database outage a key that was valid a moment ago keeps working.
      if (known && unavailableDependencyOf(error) === 'database') return known;
      throw error;
    }
    if (found && accepts(found) && !knownAccepted) await options.invalidKeyLimit?.refund(req);
    remember(hash, { key: found, checkedAt: now });
    return found;
  }

  function touch(key: ApiKey): void {
    const now = Date.now();
    if ((lastTouched.get(key.id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    lastTouched.set(key.id, now);
    options.repository.touch(key.id, new Date(now)).catch((error: unknown) => {
      // A database outage is reported once by its circuit, not once per request here.
      if (unavailableDependencyOf(error) === undefined) options.logger?.warn('could not record key use', { error });
    });
  }

  /** The request is let in with `key`: it is what the rate limits count and usage records. */
  function accept(key: ApiKey, req: Request, res: Response): void {
    res.locals.apiKey = key;
    touch(key);
    options.onAccepted?.(key, req);
  }

  async function authenticate(req: Request, res: Response, required: boolean, flag?: ApiKeyFlag): Promise<void> {
    const presented = presentedKey(req);
    if (presented === undefined) {
      if (required) throw new ApiError('API_KEY_REQUIRED');
      return;
    }
    let key: ApiKey | null = null;
    // Any stored key, even an inactive or disabled one, is a real key: its slot is given back.
    if (KEY_SYNTAX.test(presented)) key = await lookup(presented, req, res, () => true);
    else await options.invalidKeyLimit?.take(req, res);
    if (!key) throw new ApiError('INVALID_API_KEY');
    if (!key.active) throw new ApiError('INACTIVE_API_KEY');
    if (key.disabled) throw new ApiError('DISABLED_API_KEY', { extra: { reason: key.disabledReason ?? 'No reason was given.' } });
    if (flag && !key.flags.includes(flag)) throw new ApiError('MISSING_FLAG');
    accept(key, req, res);
  }

  async function verify(presented: string, flag: ApiKeyFlag, req: Request, res: Response): Promise<ApiKey> {
    const accepts = (key: ApiKey): boolean => key.active && !key.disabled && key.flags.includes(flag);
    let key: ApiKey | null = null;
    if (KEY_SYNTAX.test(presented)) key = await lookup(presented, req, res, accepts);
    else await options.invalidKeyLimit?.take(req, res);
    if (!key || !accepts(key)) throw new ApiError('MISSING_FLAG');
    accept(key, req, res);
    return key;
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
    /**
     * `presented` when it is an active, enabled key with `flag`; any other key (unknown, inactive,
     * disabled, without the flag) gets the same 403 1022 and keeps its slot of the invalid-key
     * limit, so the answers never tell an unknown key from a valid one without the flag.
     */
    verifyKey: verify,
  };
}

export type ApiKeyAuth = ReturnType<typeof createApiKeyAuth>;
