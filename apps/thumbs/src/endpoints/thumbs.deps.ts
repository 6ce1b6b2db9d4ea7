import type { AccessGuards } from '@pawlink/auth';
import { defineEndpoint, type Guard, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { ThumbsConfig } from '../config.js';
import { refuseCrossSite } from '../guards/same-site.guard.js';
import { noStore } from '../http/admin-pages.http.js';
import type { AdminLoginService } from '../services/admin-login.service.js';
import type { AdminLogoutService } from '../services/admin-logout.service.js';
import type { AdminSessionService } from '../services/admin-session.service.js';
import type { CheckThumbnailService } from '../services/check-thumbnail.service.js';
import type { CreateThumbnailService } from '../services/create-thumbnail.service.js';
import type { GetThumbnailInfoService } from '../services/get-thumbnail-info.service.js';

/** One service per endpoint (docs/architecture.md); container.ts builds them. */
export interface ThumbsServices {
  thumbnailInfo: GetThumbnailInfoService;
  createThumbnail: CreateThumbnailService;
  checkThumbnail: CheckThumbnailService;
  adminLogin: AdminLoginService;
  adminLogout: AdminLogoutService;
  adminSessions: AdminSessionService;
}

/** What the thumbs endpoints are made from (app.ts gives it once, to every endpoint). */
export interface ThumbsEndpointDeps {
  config: ThumbsConfig;
  services: ThumbsServices;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
}

/** Declares one of the thumbs service's endpoints (docs/adr/0016). */
export const thumbsEndpoint = defineEndpoint<ThumbsEndpointDeps>();

/** The tag of the bot API's operations, and of the operator pages'. */
export const THUMBNAIL_TAGS = ['thumbnails'];
export const ADMIN_TAGS = ['admin'];

/** Every answer of the admin pages, refusals included, is `Cache-Control: no-store` (first, so a refusal carries it). */
export const noStoreStep = (): Guard<unknown> => ({ doc: {}, use: () => noStore });

/** A state-changing request a browser sent from another site is 403 1023 (THUMBS_URL's origin is this site). */
export const sameSite = (): Guard<ThumbsEndpointDeps> => ({
  doc: {},
  use: ({ config }) => refuseCrossSite(config.urls.thumbs),
});
