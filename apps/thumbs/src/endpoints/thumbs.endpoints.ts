import { adminHomeEndpoint } from './admin-home.endpoint.js';
import { adminLoginEndpoint, adminLoginFormEndpoint } from './admin-login.endpoint.js';
import { adminLogoutEndpoint } from './admin-logout.endpoint.js';
import { checkThumbnailEndpoint } from './check-thumbnail.endpoint.js';
import { createThumbnailEndpoint } from './create-thumbnail.endpoint.js';
import { getThumbnailInfoEndpoint } from './get-thumbnail-info.endpoint.js';

/**
 * The operator pages (docs/api.md §4, "Operator pages"), mounted before the thumbnail endpoints,
 * whose `/:id` and `/:id/:type` patterns would take their paths.
 */
export const ADMIN_ENDPOINTS = [
  adminLoginFormEndpoint,
  adminLoginEndpoint,
  adminLogoutEndpoint,
  adminHomeEndpoint,
] as const;

/**
 * The bot API (docs/api.md §4, its table) in the order app.ts mounts it: `/check/...` first, so
 * its three segments never reach the `/:id` patterns.
 */
export const THUMBNAIL_ENDPOINTS = [checkThumbnailEndpoint, getThumbnailInfoEndpoint, createThumbnailEndpoint] as const;
