import type { ApiKeyFlag } from '@pawlink/contracts';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import type { ApiKeyService } from '../services/api-key.service.js';

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

/**
 * The key middlewares: each reads the presented key, asks `keys` (the rules are there), and lets
 * the request in with the key it accepts. `onAccepted` runs for every request whose key is
 * accepted (per-key usage) and must stay cheap.
 */
export function createApiKeyGuards(keys: ApiKeyService<Response>, onAccepted?: (key: ApiKey, req: Request) => void) {
  /** The request is let in with `key`: it is what the rate limits count and usage records. */
  function accept(key: ApiKey, req: Request, res: Response): void {
    res.locals.apiKey = key;
    onAccepted?.(key, req);
  }

  /** `presented` when it is an active, enabled key with `flag`; any other key gets the same 403 1022 (`ApiKeyService.verify`). */
  async function verifyKey(presented: string, flag: ApiKeyFlag, req: Request, res: Response): Promise<ApiKey> {
    const key = await keys.verify(presented, flag, res);
    accept(key, req, res);
    return key;
  }

  return {
    /** 1013 without a key; 1010/1011/1012 for a bad one; 1022 without `flag`. */
    requireApiKey(flag?: ApiKeyFlag): RequestHandler {
      return async (req, res, next) => {
        const key = await keys.authenticate(presentedKey(req), res, true, flag);
        if (key) accept(key, req, res);
        next();
      };
    },
    /** Anonymous requests pass; a presented key must still be valid. */
    optionalApiKey(): RequestHandler {
      return async (req, res, next) => {
        const key = await keys.authenticate(presentedKey(req), res, false);
        if (key) accept(key, req, res);
        next();
      };
    },
    verifyKey,
  };
}

export type ApiKeyGuards = ReturnType<typeof createApiKeyGuards>;
