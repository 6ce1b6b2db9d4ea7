import type { RequestHandler } from 'express';

/** Where the login form sends the operator, and where `/admin` leads. */
export const ADMIN_HOME = '/admin/queues/';
export const ADMIN_LOGIN_PATH = '/admin/login';

/** No cache keeps an answer of the admin pages, refusals included (the dashboard lets its versioned assets be kept). */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
