import { ApiError, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { AdminSessionService } from '../services/admin-session.service.js';
import { ADMIN_PAGE_HEADERS, renderAdminLoginPage } from '../views/admin-login.page.js';
import { setAdminCookie } from './admin-session-cookie.js';

export const ADMIN_HOME = '/admin/queues/';

/**
 * POST /admin/login: exchanges an admin key for a session cookie and sends the browser to the
 * dashboard (303). A refused key shows the form again with the reason to a browser, and the
 * contract's error (1010/1011/1012/1022) to an API client.
 */
export function adminLoginHandler(admin: AdminSessionService, options: { secureCookie: boolean }): RequestHandler {
  return async (req, res) => {
    const { key } = validated<{ key: string }>(req);
    let session: { token: string; maxAgeSeconds: number };
    try {
      session = await admin.login(key);
    } catch (error) {
      if (error instanceof ApiError && req.accepts(['application/json', 'text/html']) === 'text/html') {
        res.status(error.httpStatus).set(ADMIN_PAGE_HEADERS).send(renderAdminLoginPage({ error: error.message }));
        return;
      }
      throw error;
    }
    setAdminCookie(res, session.token, session.maxAgeSeconds, options.secureCookie);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, ADMIN_HOME);
  };
}
