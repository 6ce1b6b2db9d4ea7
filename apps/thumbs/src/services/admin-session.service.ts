import type { ApiKey } from '@pawlink/auth';
import type { AdminSessionRepository } from '../repositories/admin-session.repository.js';
import { mayAdminister } from '../domain/admin-access.rules.js';

/** Where a session's key is looked up again (`ApiKeyRepository` of @pawlink/auth). */
export interface AdminKeyLookup {
  findById(id: number): Promise<ApiKey | null>;
}

/**
 * The key behind an admin session cookie, for the dashboard's guard. A session is checked against
 * its key on every request, so a revoked, disabled or demoted key loses it at once.
 */
export class AdminSessionService {
  constructor(
    private readonly keys: AdminKeyLookup,
    private readonly sessions: Pick<AdminSessionRepository, 'find' | 'delete'>,
  ) {}

  /** The key of a live session, or null (unknown, expired, or its key may no longer: then it is ended). */
  async keyOfSession(token: string): Promise<ApiKey | null> {
    const keyId = await this.sessions.find(token);
    if (keyId === null) return null;
    const key = await this.keys.findById(keyId);
    if (mayAdminister(key)) return key;
    await this.sessions.delete(token);
    return null;
  }
}
