import { presentedKey, type AccessGuards } from '@pawlink/auth';
import { ApiError } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import { ADMIN_FLAG, type AdminSessionService } from '../services/admin-session.service.js';

/** The cookie of an admin session: HttpOnly, SameSite=Strict, Path=/admin. */
export const ADMIN_COOKIE = 'pawlink_admin';
export const ADMIN_LOGIN_PATH = '/admin/login';

/** The session token of the request's cookie, if any. */
export function adminSessionToken(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === ADMIN_COOKIE) {
      const token = value.join('=');
      return /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : undefined;
    }
  }
  return undefined;
}

/** A browser navigating (it would rather have HTML than JSON), not a script or an API client. */
export const wantsHtml = (req: Request): boolean => (req.method === 'GET' || req.method === 'HEAD') && req.accepts(['application/json', 'text/html']) === 'text/html';

/**
 * The admin pages' key guard: an admin key in `Authorization`, checked by the API's key check
 * (`verifyKey`: its cache, and the invalid-key limit counted before the lookup), or the session
 * cookie set by the login form. Every key that is not an admin key, unknown or not, gets the same
 * 403 1022. Without a key or a live session, a browser is sent to the login page and an API client
 * gets 401 code 1013.
 */
export function requireAdmin(admin: AdminSessionService, verifyKey: AccessGuards['verifyKey']): RequestHandler {
  return async (req: Request, res: Response, next) => {
    const presented = presentedKey(req);
    if (presented !== undefined) {
      res.locals.adminKey = await verifyKey(presented, ADMIN_FLAG, req, res);
      next();
      return;
    }
    const token = adminSessionToken(req);
    const key = token === undefined ? null : await admin.keyOfSession(token);
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
