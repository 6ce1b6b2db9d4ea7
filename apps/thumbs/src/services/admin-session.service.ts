import type { ApiKey } from '@pawlink/auth';
import type { ErrorName } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';

/** Where keys are looked up (`ApiKeyRepository` of @pawlink/auth). */
export interface AdminKeyLookup {
  findByKey(key: string): Promise<ApiKey | null>;
  findById(id: number): Promise<ApiKey | null>;
}

/** Where sessions live (`AdminSessionRepository`). */
export interface AdminSessionStore {
  create(keyId: number): Promise<string>;
  find(token: string): Promise<number | null>;
  delete(token: string): Promise<void>;
  readonly ttlSeconds: number;
}

const KEY_SYNTAX = /^[\x21-\x7e]{1,200}$/;

/** Why a key may not use the admin pages, as the contract's error; undefined when it may. */
export function adminRefusalOf(key: ApiKey | null): ErrorName | undefined {
  if (!key) return 'INVALID_API_KEY';
  if (!key.active) return 'INACTIVE_API_KEY';
  if (key.disabled) return 'DISABLED_API_KEY';
  if (!key.flags.includes('admin')) return 'MISSING_FLAG';
  return undefined;
}

const refusal = (name: ErrorName, key: ApiKey | null): ApiError =>
  name === 'DISABLED_API_KEY' ? new ApiError(name, { extra: { reason: key?.disabledReason ?? 'No reason was given.' } }) : new ApiError(name);

/**
 * Who may use the admin pages (the queue dashboard): keys with the `admin` flag, active and not
 * disabled, presented as `Authorization` or exchanged once for a session. A session is checked
 * against its key on every request, so a revoked, disabled or demoted key loses it at once.
 */
export class AdminSessionService {
  constructor(
    private readonly keys: AdminKeyLookup,
    private readonly sessions: AdminSessionStore,
  ) {}

  /** The admin key presented; throws 1010/1011/1012/1022 otherwise. */
  async checkKey(presented: string): Promise<ApiKey> {
    const key = KEY_SYNTAX.test(presented) ? await this.keys.findByKey(presented) : null;
    const refused = adminRefusalOf(key);
    if (refused) throw refusal(refused, key);
    return key as ApiKey;
  }

  /** A session token for an admin key (the login form); throws as `checkKey`. */
  async login(presented: string): Promise<{ token: string; maxAgeSeconds: number }> {
    const key = await this.checkKey(presented);
    return { token: await this.sessions.create(key.id), maxAgeSeconds: this.sessions.ttlSeconds };
  }

  /** The key of a live session, or null (unknown, expired, or its key may no longer: then it is ended). */
  async keyOfSession(token: string): Promise<ApiKey | null> {
    const keyId = await this.sessions.find(token);
    if (keyId === null) return null;
    const key = await this.keys.findById(keyId);
    if (adminRefusalOf(key) === undefined) return key;
    await this.sessions.delete(token);
    return null;
  }

  logout(token: string): Promise<void> {
    return this.sessions.delete(token);
  }
}
