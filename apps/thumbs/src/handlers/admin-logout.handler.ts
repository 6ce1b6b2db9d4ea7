import type { RequestHandler } from 'express';
import { ADMIN_LOGIN_PATH, adminSessionToken } from '../guards/admin-access.guard.js';
import type { AdminSessionService } from '../services/admin-session.service.js';
import { setAdminCookie } from './admin-session-cookie.js';

/** POST /admin/logout: ends the session (in Redis and the cookie) and shows the login form. */
export function adminLogoutHandler(admin: AdminSessionService, options: { secureCookie: boolean }): RequestHandler {
  return async (req, res) => {
    const token = adminSessionToken(req);
    if (token !== undefined) await admin.logout(token);
    setAdminCookie(res, '', 0, options.secureCookie);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, ADMIN_LOGIN_PATH);
  };
}
