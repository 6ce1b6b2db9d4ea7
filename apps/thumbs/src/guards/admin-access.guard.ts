import { presentedKey, type AccessGuards } from '@pawlink/auth';
import { ApiError } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import { ADMIN_LOGIN_PATH } from '../http/admin-pages.http.js';
import { adminSessionToken } from '../http/admin-session-cookie.http.js';
import { ADMIN_FLAG } from '../domain/admin-access.rules.js';
import type { AdminSessionService } from '../services/admin-session.service.js';

/** A browser navigating (it would rather have HTML than JSON), not a script or an API client. */
export const wantsHtml = (req: Request): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') && req.accepts(['application/json', 'text/html']) === 'text/html';

/**
 * The admin pages' key guard: an admin key in `Authorization`, checked by the API's key check
 * (`verifyKey`: its cache, and the invalid-key limit counted before the lookup), or the session
 * cookie set by the login form. Every key that is not an admin key, unknown or not, gets the same
 * 403 1022. Without a key or a live session, a browser is sent to the login page and an API client
 * gets 401 code 1013.
 */
export function requireAdmin(
  sessions: Pick<AdminSessionService, 'keyOfSession'>,
  verifyKey: AccessGuards['verifyKey'],
): RequestHandler {
  return async (req: Request, res: Response, next) => {
    const presented = presentedKey(req);
    if (presented !== undefined) {
      res.locals.adminKey = await verifyKey(presented, ADMIN_FLAG, req, res);
      next();
      return;
    }
    const token = adminSessionToken(req);
    const key = token === undefined ? null : await sessions.keyOfSession(token);
    if (key) {
      res.locals.adminKey = key;
      next();
      return;
    }
    if (wantsHtml(req)) {
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, ADMIN_LOGIN_PATH);
      return;
    }
    throw new ApiError('API_KEY_REQUIRED');
  };
}
