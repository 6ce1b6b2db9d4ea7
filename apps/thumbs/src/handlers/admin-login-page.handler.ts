import type { RequestHandler } from 'express';
import { ADMIN_PAGE_HEADERS, renderAdminLoginPage } from '../views/admin-login.page.js';

/** GET /admin/login: the form where the operator pastes an admin key. */
export function adminLoginPageHandler(): RequestHandler {
  return (_req, res) => {
    res.status(200).set(ADMIN_PAGE_HEADERS).send(renderAdminLoginPage());
  };
}
