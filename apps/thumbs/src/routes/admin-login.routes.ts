import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, requireParsedBody, validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { refuseCrossSite } from '../guards/same-site.guard.js';
import { adminLoginPageHandler } from '../handlers/admin-login-page.handler.js';
import { adminLoginHandler } from '../handlers/admin-login.handler.js';
import { noStore } from '../http/admin-pages.http.js';
import type { AdminLoginService } from '../services/admin-login.service.js';
import { adminLoginValidation } from '../validation/admin-login.validation.js';

export interface AdminLoginRouteDeps {
  guards: AccessGuards;
  adminLogin: AdminLoginService;
  /** THUMBS_URL: its origin is the only one allowed to post here. */
  publicUrl: string;
  /** ADMIN_COOKIE_SECURE resolved: whether the session cookie is `Secure`. */
  secureCookie: boolean;
}

/**
 * The login form of the operator's pages (README, "The queue dashboard"). The form posts:
 * cross-site check → rate limit → body → validation → handler (which checks the key as the
 * dashboard does).
 */
export function registerAdminLoginRoute(app: Express, deps: AdminLoginRouteDeps): void {
  const { guards } = deps;
  app.get('/admin/login', noStore, adminLoginPageHandler());
  app.post(
    '/admin/login',
    noStore,
    refuseCrossSite(deps.publicUrl),
    guards.rateLimit('thumbs.admin-login'),
    requireParsedBody,
    validate(...adminLoginValidation),
    adminLoginHandler(deps.adminLogin, guards.verifyKey, { secureCookie: deps.secureCookie }),
  );
  app.all('/admin/login', noStore, onlyMethods('GET', 'HEAD', 'POST'));
}
