import { onlyMethods } from '@pawlink/service-kit';
import type { Express } from 'express';
import { refuseCrossSite } from '../guards/same-site.guard.js';
import { adminLogoutHandler } from '../handlers/admin-logout.handler.js';
import { noStore } from '../http/admin-pages.http.js';
import type { AdminLogoutService } from '../services/admin-logout.service.js';

export interface AdminLogoutRouteDeps {
  adminLogout: AdminLogoutService;
  /** THUMBS_URL: its origin is the only one allowed to post here. */
  publicUrl: string;
  /** ADMIN_COOKIE_SECURE resolved: whether the cleared cookie is `Secure`. */
  secureCookie: boolean;
}

/** POST /admin/logout: cross-site check → handler. */
export function registerAdminLogoutRoute(app: Express, deps: AdminLogoutRouteDeps): void {
  app.post(
    '/admin/logout',
    noStore,
    refuseCrossSite(deps.publicUrl),
    adminLogoutHandler(deps.adminLogout, { secureCookie: deps.secureCookie }),
  );
  app.all('/admin/logout', noStore, onlyMethods('POST'));
}
