import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, requireParsedBody, validate } from '@pawlink/service-kit';
import type { Queue } from 'bullmq';
import type { Express, RequestHandler } from 'express';
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
  /** THUMBS_URL: its origin is the only one allowed to post here. */
  publicUrl: string;
  /** ADMIN_COOKIE_SECURE resolved: whether the session cookie is `Secure`. */
  secureCookie: boolean;
  /** THUMBS_DASHBOARD_WRITE: the dashboard may change jobs (else bull-board's read-only mode). */
  dashboardWrite: boolean;
}

/** No cache keeps an answer of the admin pages, refusals included (the dashboard lets its versioned assets be kept). */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * The operator's pages on thumbs (README, "The queue dashboard"): a login form, and bull-board at
 * /admin/queues for keys with the `admin` flag. Order: cross-site check → rate limit (login) →
 * body → validation → handler (which checks the key as the dashboard does); the dashboard:
 * cross-site check → admin key (the API's key check) or session → rate limit → bull-board.
 * Registered before the thumbnail routes, whose `/:id` and `/:id/:type` patterns would take these paths.
 */
export function registerAdminRoutes(app: Express, deps: AdminRouteDeps): void {
  const sameSite = refuseCrossSite(deps.publicUrl);
  const cookie = { secureCookie: deps.secureCookie };
  app.get('/admin/login', noStore, adminLoginPageHandler());
  app.post('/admin/login', noStore, sameSite, deps.guards.rateLimit('thumbs.admin-login'), requireParsedBody, validate(...adminLoginValidation), adminLoginHandler(deps.admin, deps.guards.verifyKey, cookie));
  app.all('/admin/login', noStore, onlyMethods('GET', 'HEAD', 'POST'));
  app.post('/admin/logout', noStore, sameSite, adminLogoutHandler(deps.admin, cookie));
  app.all('/admin/logout', noStore, onlyMethods('POST'));
  app.get('/admin', noStore, (_req, res) => res.redirect(302, ADMIN_HOME));
  app.all('/admin', noStore, onlyMethods('GET', 'HEAD'));
  app.use(
    '/admin/queues',
    noStore,
    sameSite,
    requireAdmin(deps.admin, deps.guards.verifyKey),
    deps.guards.rateLimit('thumbs.admin'),
    queueDashboardHandler([deps.queue], '/admin/queues', { write: deps.dashboardWrite }),
  );
}
