import { header, media, type HeaderObject } from '@pawlink/contracts/openapi';
import type { RequestHandler } from 'express';

/** Where the login form sends the operator, and where `/admin` leads. */
export const ADMIN_HOME = '/admin/queues/';
export const ADMIN_LOGIN_PATH = '/admin/login';

/** No cache keeps an answer of the admin pages, refusals included (the dashboard lets its versioned assets be kept). */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** A relative redirect target: the admin pages redirect within the service (`res.redirect('/admin/…')`). */
export const to = (path: string): HeaderObject => ({
  description: 'Where the browser goes next.',
  required: true,
  schema: { const: path },
});

/** The admin session cookie as `Set-Cookie` writes it. */
export const adminCookie = (description: string): HeaderObject => ({
  description,
  required: true,
  schema: { type: 'string', pattern: '^pawlink_admin=[^;]*; ' },
});

/** The login form's headers (a page without script, under `default-src 'none'`). */
const formHeaders = {
  'Content-Security-Policy': header('Content-Security-Policy', true),
  'Cache-Control': header('Cache-Control', true),
};

/** The login form, as a page. */
export const loginForm = (description: string) => media(description, ['text/html'], formHeaders);

/** Express's redirect: a short "Redirecting to …" text or page, as the client's `Accept` prefers. */
export const redirect = (description: string, headers: Record<string, HeaderObject>) =>
  media(description, ['text/plain', 'text/html'], headers);
