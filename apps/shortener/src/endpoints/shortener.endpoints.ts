import { closeConsoleSessionEndpoint, openConsoleSessionEndpoint } from './console-session.endpoint.js';
import { getConsoleAssetEndpoint, getConsoleEndpoint } from './get-console.endpoint.js';
import { bulkCreateShortUrlsEndpoint } from './bulk-create-short-urls.endpoint.js';
import { createShortUrlEndpoint } from './create-short-url.endpoint.js';
import { deleteShortUrlAliasEndpoint, deleteShortUrlEndpoint } from './delete-short-url.endpoint.js';
import { exportLinksEndpoint } from './export-links.endpoint.js';
import { getShortUrlQrEndpoint } from './get-short-url-qr.endpoint.js';
import { getShortUrlStatsEndpoint } from './get-short-url-stats.endpoint.js';
import { getShortUrlEndpoint } from './get-short-url.endpoint.js';
import { listShortUrlsEndpoint } from './list-short-urls.endpoint.js';
import { listTagsEndpoint } from './list-tags.endpoint.js';
import { previewShortUrlEndpoint } from './preview-short-url.endpoint.js';
import { redirectShortUrlEndpoint } from './redirect-short-url.endpoint.js';
import { unlockShortUrlEndpoint } from './unlock-short-url.endpoint.js';
import { updateShortUrlEndpoint } from './update-short-url.endpoint.js';

/**
 * The shortener's endpoints (docs/api.md §2) in the order app.ts mounts them, which their patterns
 * need: the fixed words (`/console…`, `/create`, `/links`, `/tags`, `/delete`; reserved codes) before the `/:code`
 * patterns, and `/:code.json`, `/:code/stats`, `/:code/qr` and `/:code+` before `/:code`.
 */
export const SHORTENER_ENDPOINTS = [
  getConsoleEndpoint,
  getConsoleAssetEndpoint,
  openConsoleSessionEndpoint,
  closeConsoleSessionEndpoint,
  createShortUrlEndpoint,
  bulkCreateShortUrlsEndpoint,
  exportLinksEndpoint,
  listShortUrlsEndpoint,
  listTagsEndpoint,
  deleteShortUrlAliasEndpoint,
  deleteShortUrlEndpoint,
  getShortUrlEndpoint,
  getShortUrlStatsEndpoint,
  getShortUrlQrEndpoint,
  previewShortUrlEndpoint,
  redirectShortUrlEndpoint,
  unlockShortUrlEndpoint,
  updateShortUrlEndpoint,
] as const;
