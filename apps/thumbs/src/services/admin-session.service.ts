import type { ApiKey } from '@pawlink/auth';
import type { ApiKeyFlag } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';

/** Where a session's key is looked up again (`ApiKeyRepository` of @pawlink/auth). */
export interface AdminKeyLookup {
  findById(id: number): Promise<ApiKey | null>;
}

/** Where sessions live (`AdminSessionRepository`). */
export interface AdminSessionStore {
  create(keyId: number): Promise<string>;
  find(token: string): Promise<number | null>;
  delete(token: string): Promise<void>;
  readonly ttlSeconds: number;
}

/** The flag a key needs for the admin pages. */
export const ADMIN_FLAG: ApiKeyFlag = 'admin';

/** Whether a key may use the admin pages: active, not disabled, with the `admin` flag. */
export const mayAdminister = (key: ApiKey | null): key is ApiKey => key !== null && key.active && !key.disabled && key.flags.includes(ADMIN_FLAG);

/**
 * Who may use the admin pages (the queue dashboard): keys with the `admin` flag, active and not
 * disabled, presented as `Authorization` or exchanged once for a session. The key itself is
 * checked by @pawlink/auth's `verifyKey` (its cache and invalid-key limit, one answer for every
 * refused key). A session is checked against its key on every request, so a revoked, disabled or
 * demoted key loses it at once.
 */
export class AdminSessionService {
  constructor(
    private readonly keys: AdminKeyLookup,
    private readonly sessions: AdminSessionStore,
  ) {}

  /** A session token for a key `verifyKey` let in (the login form); 403 1022 for any other key. */
  async login(key: ApiKey): Promise<{ token: string; maxAgeSeconds: number }> {
    if (!mayAdminister(key)) throw new ApiError('MISSING_FLAG');
    return { token: await this.sessions.create(key.id), maxAgeSeconds: this.sessions.ttlSeconds };
  }

  /** The key of a live session, or null (unknown, expired, or its key may no longer: then it is ended). */
  async keyOfSession(token: string): Promise<ApiKey | null> {
    const keyId = await this.sessions.find(token);
    if (keyId === null) return null;
    const key = await this.keys.findById(keyId);
    if (mayAdminister(key)) return key;
    await this.sessions.delete(token);
    return null;
  }

  logout(token: string): Promise<void> {
    return this.sessions.delete(token);
  }
}
