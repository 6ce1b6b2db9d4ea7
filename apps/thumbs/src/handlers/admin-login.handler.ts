import type { AccessGuards } from '@pawlink/auth';
import { ApiError, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { ADMIN_HOME } from '../http/admin-pages.http.js';
import { setAdminCookie } from '../http/admin-session-cookie.http.js';
import { ADMIN_FLAG } from '../services/admin-access.rules.js';
import type { AdminLoginService } from '../services/admin-login.service.js';
import { ADMIN_PAGE_HEADERS, renderAdminLoginPage } from '../views/admin-login.page.js';

/**
 * POST /admin/login: exchanges an admin key for a session cookie and sends the browser to the
 * dashboard (303). The key is checked as the dashboard checks one in `Authorization`
 * (`verifyKey`): every key that is not an admin key gets the same 403 1022, and the address's
 * invalid-key limit applies. A refusal shows the form again with the reason to a browser, and the
 * contract's error to an API client.
 */
export function adminLoginHandler(
  admin: Pick<AdminLoginService, 'login'>,
  verifyKey: AccessGuards['verifyKey'],
  options: { secureCookie: boolean },
): RequestHandler {
  return async (req, res) => {
    const { key } = validated<{ key: string }>(req);
    let session: { token: string; maxAgeSeconds: number };
    try {
      session = await admin.login(await verifyKey(key, ADMIN_FLAG, req, res));
    } catch (error) {
      if (error instanceof ApiError && req.accepts(['application/json', 'text/html']) === 'text/html') {
        for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
        res
          .status(error.httpStatus)
          .set(ADMIN_PAGE_HEADERS)
          .send(renderAdminLoginPage({ error: error.message }));
        return;
      }
      throw error;
    }
    setAdminCookie(res, session.token, session.maxAgeSeconds, options.secureCookie);
    res.redirect(303, ADMIN_HOME);
  };
}
