import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, requireParsedBody, validate } from '@pawlink/service-kit';
import type { Queue } from 'bullmq';
import type { Express } from 'express';
import { requireAdmin } from '../guards/admin-access.guard.js';
import { refuseCrossSite } from '../guards/same-site.guard.js';
import { ADMIN_HOME, adminLoginHandler } from '../handlers/admin-login.handler.js';
import { adminLoginPageHandler } from '../handlers/admin-login-page.handler.js';
import { adminLogoutHandler } from '../handlers/admin-logout.handler.js';
import { queueDashboardHandler } from '../handlers/queue-dashboard.handler.js';
import type { AdminSessionService } from '../services/admin-session.service.js';
import { adminLoginValidation } from '../validation/admin.validation.js';

export interface AdminRouteDeps {
  guards: AccessGuards;
  admin: AdminSessionService;
  /** The thumbnail queue the dashboard shows. */
  queue: Queue;
  /** THUMBS_URL: its origin is the only one allowed to post here; https makes the cookie Secure. */
  publicUrl: string;
}

/**
 * The operator's pages on thumbs (README, "The queue dashboard"): a login form, and bull-board at
 * /admin/queues for keys with the `admin` flag. Order: cross-site check → rate limit (login) →
 * body → validation → handler; the dashboard: cross-site check → admin key or session → bull-board.
 * Registered before the thumbnail routes, whose `/:id` and `/:id/:type` patterns would take these paths.
 */
export function registerAdminRoutes(app: Express, deps: AdminRouteDeps): void {
  const sameSite = refuseCrossSite(deps.publicUrl);
  const cookie = { secureCookie: new URL(deps.publicUrl).protocol === 'https:' };
  app.get('/admin/login', adminLoginPageHandler());
  app.post('/admin/login', sameSite, deps.guards.rateLimit('thumbs.admin-login'), requireParsedBody, validate(...adminLoginValidation), adminLoginHandler(deps.admin, cookie));
  app.all('/admin/login', onlyMethods('GET', 'HEAD', 'POST'));
  app.post('/admin/logout', sameSite, adminLogoutHandler(deps.admin, cookie));
  app.all('/admin/logout', onlyMethods('POST'));
  app.get('/admin', (_req, res) => res.redirect(302, ADMIN_HOME));
  app.all('/admin', onlyMethods('GET', 'HEAD'));
  app.use('/admin/queues', sameSite, requireAdmin(deps.admin), queueDashboardHandler([deps.queue], '/admin/queues'));
}
