import type { RequestHandler } from 'express';
import { ADMIN_LOGIN_PATH } from '../http/admin-pages.http.js';
import { adminSessionToken, setAdminCookie } from '../http/admin-session-cookie.http.js';
import type { AdminLogoutService } from '../services/admin-logout.service.js';

/** POST /admin/logout: ends the session (in Redis and the cookie) and shows the login form. */
export function adminLogoutHandler(
  admin: Pick<AdminLogoutService, 'logout'>,
  options: { secureCookie: boolean },
): RequestHandler {
  return async (req, res) => {
    const token = adminSessionToken(req);
    if (token !== undefined) await admin.logout(token);
    setAdminCookie(res, '', 0, options.secureCookie);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, ADMIN_LOGIN_PATH);
  };
}
