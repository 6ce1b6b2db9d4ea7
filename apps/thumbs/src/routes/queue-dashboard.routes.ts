import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods } from '@pawlink/service-kit';
import type { Queue } from 'bullmq';
import type { Express } from 'express';
import { requireAdmin } from '../guards/admin-access.guard.js';
import { refuseCrossSite } from '../guards/same-site.guard.js';
import { queueDashboardHandler } from '../handlers/queue-dashboard.handler.js';
import { ADMIN_HOME, noStore } from '../http/admin-pages.http.js';
import type { AdminSessionService } from '../services/admin-session.service.js';

export interface QueueDashboardRouteDeps {
  guards: AccessGuards;
  adminSessions: AdminSessionService;
  /** The queues the dashboard shows: thumbnails, and the callback deliveries. */
  queues: Queue[];
  /** THUMBS_URL: its origin is the only one allowed to change anything here. */
  publicUrl: string;
  /** THUMBS_DASHBOARD_WRITE: the dashboard may change jobs (else bull-board's read-only mode). */
  dashboardWrite: boolean;
}

/**
 * bull-board at /admin/queues for keys with the `admin` flag (README, "The queue dashboard"), and
 * `/admin`, which leads there. Order: cross-site check → admin key (the API's key check) or
 * session → rate limit → bull-board.
 */
export function registerQueueDashboardRoute(app: Express, deps: QueueDashboardRouteDeps): void {
  app.get('/admin', noStore, (_req, res) => res.redirect(302, ADMIN_HOME));
  app.all('/admin', noStore, onlyMethods('GET', 'HEAD'));
  app.use(
    '/admin/queues',
    noStore,
    refuseCrossSite(deps.publicUrl),
    requireAdmin(deps.adminSessions, deps.guards.verifyKey),
    deps.guards.rateLimit('thumbs.admin'),
    queueDashboardHandler(deps.queues, '/admin/queues', { write: deps.dashboardWrite }),
  );
}
