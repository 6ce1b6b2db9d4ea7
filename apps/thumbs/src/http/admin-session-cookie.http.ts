import type { Request, Response } from 'express';

/** The cookie of an admin session: HttpOnly, SameSite=Strict, Path=/admin. */
export const ADMIN_COOKIE = 'pawlink_admin';

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

/** Sets (or, with `maxAgeSeconds` 0, clears) the admin session cookie: HttpOnly, SameSite=Strict, Path=/admin. */
export function setAdminCookie(res: Response, token: string, maxAgeSeconds: number, secure: boolean): void {
  const attributes = [
    `${ADMIN_COOKIE}=${token}`,
    'Path=/admin',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (secure) attributes.push('Secure');
  res.append('Set-Cookie', attributes.join('; '));
}
