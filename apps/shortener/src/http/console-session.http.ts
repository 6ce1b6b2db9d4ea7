import { ApiError } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { ConsoleSessionService } from '../services/console-session.service.js';

/** The cookie that holds a console session's id. */
export const CONSOLE_COOKIE = 'pawlink_console';
/**
 * The header the console sends with every API request. A page on another site cannot send it
 * without a CORS preflight this service never grants, so a request carrying it comes from the
 * console's own origin: the session cookie is read only then (with SameSite=Strict, the CSRF defence).
 */
export const CONSOLE_HEADER = 'x-pawlink-console';

/** The session id in the request's cookie, when there is one. */
export function consoleSessionId(req: Request): string | undefined {
  const cookies = req.headers.cookie;
  if (cookies === undefined || !cookies.includes(CONSOLE_COOKIE)) return undefined;
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.split('=');
    if (name?.trim() === CONSOLE_COOKIE) return value.join('=').trim();
  }
  return undefined;
}

/** Whether the request says it comes from the console (the header, any non-empty value). */
export const fromConsole = (req: Request): boolean => {
  const value = req.headers[CONSOLE_HEADER];
  return typeof value === 'string' && value !== '';
};

function cookieAttributes(secure: boolean): string {
  return `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Sets the session cookie: a browser-session cookie (no Max-Age); Secure when the public URL is https. */
export function setConsoleCookie(res: Response, id: string, secure: boolean): void {
  res.append('Set-Cookie', `${CONSOLE_COOKIE}=${id}; ${cookieAttributes(secure)}`);
}

/** Tells the browser to drop the session cookie. */
export function clearConsoleCookie(res: Response, secure: boolean): void {
  res.append('Set-Cookie', `${CONSOLE_COOKIE}=; Max-Age=0; ${cookieAttributes(secure)}`);
}

/**
 * Before the endpoints: a request from the console (its header) with a session cookie and no
 * `Authorization` gets the session's API key as if it had sent it, so every endpoint checks it
 * with the same guards (key, flag, invalid-key throttle, rate limits) as any client's. An unknown
 * or ended session adds nothing (the endpoint then answers 1013 like any request without a key);
 * a request without the header never has its cookie read.
 */
export function consoleSessionKey(sessions: () => ConsoleSessionService): RequestHandler {
  return async (req, _res, next) => {
    if (req.headers.authorization !== undefined || !fromConsole(req)) return next();
    const id = consoleSessionId(req);
    if (id === undefined) return next();
    let key: string | undefined;
    try {
      key = await sessions().keyOf(id);
    } catch (error) {
      return next(new ApiError('DEPENDENCY_UNAVAILABLE', { cause: error }));
    }
    if (key !== undefined) req.headers.authorization = key;
    next();
  };
}
