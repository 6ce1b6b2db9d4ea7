import type { AccessGuards } from '@pawlink/auth';
import { defineEndpoint, type Logger, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { ShortenerConfig } from '../config.js';
import type { BulkCreateShortUrlsService } from '../services/bulk-create-short-urls.service.js';
import type { CreateShortUrlService } from '../services/create-short-url.service.js';
import type { DeleteShortUrlService } from '../services/delete-short-url.service.js';
import type { ExportLinksService } from '../services/export-links.service.js';
import type { GetShortUrlQrService } from '../services/get-short-url-qr.service.js';
import type { GetShortUrlStatsService } from '../services/get-short-url-stats.service.js';
import type { GetShortUrlService } from '../services/get-short-url.service.js';
import type { ListShortUrlsService } from '../services/list-short-urls.service.js';
import type { ListTagsService } from '../services/list-tags.service.js';
import type { PreviewShortUrlService } from '../services/preview-short-url.service.js';
import type { RedirectShortUrlService } from '../services/redirect-short-url.service.js';
import type { UnlockShortUrlService } from '../services/unlock-short-url.service.js';
import type { UpdateShortUrlService } from '../services/update-short-url.service.js';
import type { ConsoleSessionService } from '../services/console-session.service.js';
import type { GetConsoleService } from '../services/get-console.service.js';

/** One service per endpoint (docs/architecture.md); container.ts builds them. */
export interface ShortenerServices {
  createShortUrl: CreateShortUrlService;
  bulkCreateShortUrls: BulkCreateShortUrlsService;
  listShortUrls: ListShortUrlsService;
  listTags: ListTagsService;
  exportLinks: ExportLinksService;
  getShortUrlQr: GetShortUrlQrService;
  /** Both lanes of the redirect: the fast lane before Express and the Express route. */
  redirectShortUrl: RedirectShortUrlService;
  previewShortUrl: PreviewShortUrlService;
  /** The password form of a protected link (`POST /:code`). */
  unlockShortUrl: UnlockShortUrlService;
  getShortUrl: GetShortUrlService;
  getShortUrlStats: GetShortUrlStatsService;
  updateShortUrl: UpdateShortUrlService;
  deleteShortUrl: DeleteShortUrlService;
  /** The console's page and assets, and its sign-ins (docs/console.md). */
  getConsole: GetConsoleService;
  consoleSession: ConsoleSessionService;
}
import type { LimitLookups } from '../guards/lookup-limit.guard.js';

/** What the shortener's endpoints are made from (app.ts gives it once, to every endpoint). */
export interface ShortenerEndpointDeps {
  /** The app's settings; also what the fields' parsers read (SHORTENER_PRIVATE_TARGET_PREFIXES). */
  config: ShortenerConfig;
  /** For what a handler cannot answer any more (a download cut short after its status has gone). */
  logger: Logger;
  services: ShortenerServices;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  /** The per-IP `shortener.lookup` limit of the public paths, for what memory cannot answer. */
  limitLookups: LimitLookups;
}

/** Declares one of the shortener's endpoints (docs/adr/0016). */
export const shortenerEndpoint = defineEndpoint<ShortenerEndpointDeps>();

/** The tag of every short-url operation in the document. */
export const SHORT_URL_TAGS = ['short urls'];

/** The tag of the console's operations in the document. */
export const CONSOLE_TAGS = ['console'];
