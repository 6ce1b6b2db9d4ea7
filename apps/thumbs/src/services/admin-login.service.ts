import type { ApiKey } from '@pawlink/auth';
import { ApiError } from '@pawlink/service-kit';
import type { AdminSessionRepository } from '../repositories/admin-session.repository.js';
import { mayAdminister } from '../domain/admin-access.rules.js';

/**
 * POST /admin/login: a key with the `admin` flag, active and not disabled, is exchanged once for a
 * session of the admin pages (the queue dashboard). The key itself is checked before by
 * @pawlink/auth's `verifyKey` (its cache and invalid-key limit, one answer for every refused key).
 */
export class AdminLoginService {
  constructor(private readonly sessions: Pick<AdminSessionRepository, 'create' | 'ttlSeconds'>) {}

  /** A session token for a key `verifyKey` let in; 403 1022 for any other key. */
  async login(key: ApiKey): Promise<{ token: string; maxAgeSeconds: number }> {
    if (!mayAdminister(key)) throw new ApiError('MISSING_FLAG');
    return { token: await this.sessions.create(key.id), maxAgeSeconds: this.sessions.ttlSeconds };
  }
}
