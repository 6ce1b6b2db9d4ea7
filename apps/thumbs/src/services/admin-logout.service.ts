import type { AdminSessionRepository } from '../repositories/admin-session.repository.js';

/** POST /admin/logout: the session ends at once, whatever its key. */
export class AdminLogoutService {
  constructor(private readonly sessions: Pick<AdminSessionRepository, 'delete'>) {}

  logout(token: string): Promise<void> {
    return this.sessions.delete(token);
  }
}
