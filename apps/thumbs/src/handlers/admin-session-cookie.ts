import type { Response } from 'express';
import { ADMIN_COOKIE } from '../guards/admin-access.guard.js';

/** Sets (or, with `maxAgeSeconds` 0, clears) the admin session cookie: HttpOnly, SameSite=Strict, Path=/admin. */
export function setAdminCookie(res: Response, token: string, maxAgeSeconds: number, secure: boolean): void {
  const attributes = [`${ADMIN_COOKIE}=${token}`, 'Path=/admin', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (secure) attributes.push('Secure');
  res.append('Set-Cookie', attributes.join('; '));
}
