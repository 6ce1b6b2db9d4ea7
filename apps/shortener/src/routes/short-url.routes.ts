import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, requireParsedBody, requireWritable, validate, type Logger, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { createShortUrlHandler } from '../handlers/create-short-url.handler.js';
import { deleteShortUrlHandler } from '../handlers/delete-short-url.handler.js';
import { getShortUrlStatsHandler } from '../handlers/get-short-url-stats.handler.js';
import { getShortUrlHandler } from '../handlers/get-short-url.handler.js';
import { createLookupLimit } from '../handlers/lookup-limit.js';
import { previewShortUrlHandler, sendPreviewLimited } from '../handlers/preview-short-url.handler.js';
import { redirectHandler, sendRedirectLimited } from '../handlers/redirect.handler.js';
import { undecodableCodeHandler } from '../handlers/undecodable-code.handler.js';
import { updateShortUrlHandler } from '../handlers/update-short-url.handler.js';
import type { ShortUrlService } from '../services/short-url.service.js';
import {
  createShortUrlValidation,
  deleteShortUrlAliasValidation,
  deleteShortUrlValidation,
  getShortUrlValidation,
  publicCodeValidation,
  updateShortUrlValidation,
} from '../validation/short-url.validation.js';

/** The redirect route's pattern, which is also its `route` label in the HTTP metrics, fast path included. */
export const REDIRECT_ROUTE = '/:code';

export interface ShortUrlRouteDeps {
  shortUrls: ShortUrlService;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  /** `Cache-Control` of redirects. */
  redirectCacheControl: string;
  logger: Logger;
}

/**
 * API.md §2. Order on every route: key → rate limit → read-only → body → validation → handler. The
 * public redirect and preview have no key; their rate limit counts only the requests that must ask
 * Redis or MySQL, per client IP.
 */
export function registerShortUrlRoutes(app: Express, { shortUrls, guards, readOnly, redirectCacheControl, logger }: ShortUrlRouteDeps): void {
  const key = guards.requireKey('shortener');
  const writable = requireWritable(readOnly);
  const limitLookups = createLookupLimit(guards.rateLimit('shortener.lookup'), logger);
  // Fixed words before the `/:code` patterns; the reserved-code policy keeps them out of use.
  app.post('/create', key, guards.rateLimit('shortener.create'), writable, requireParsedBody, validate(...createShortUrlValidation), createShortUrlHandler(shortUrls));
  app.all('/create', onlyMethods('POST'));
  app.post('/delete', key, guards.rateLimit('shortener.manage'), writable, requireParsedBody, validate(...deleteShortUrlAliasValidation), deleteShortUrlHandler(shortUrls));
  app.all('/delete', onlyMethods('POST'));
  app.get('/:code.json', key, guards.rateLimit('shortener.read'), validate(...getShortUrlValidation), getShortUrlHandler(shortUrls));
  app.get('/:code/stats', key, guards.rateLimit('shortener.stats'), validate(...getShortUrlValidation), getShortUrlStatsHandler(shortUrls));
  app.get('/:code\\+', limitLookups((code) => shortUrls.previewNeedsLookup(code), sendPreviewLimited), validate(...publicCodeValidation), previewShortUrlHandler(shortUrls));
  app.get(REDIRECT_ROUTE, limitLookups((code) => shortUrls.redirectNeedsLookup(code), sendRedirectLimited), validate(...publicCodeValidation), redirectHandler(shortUrls, redirectCacheControl));
  app.patch('/:code', key, guards.rateLimit('shortener.manage'), writable, requireParsedBody, validate(...updateShortUrlValidation), updateShortUrlHandler(shortUrls));
  app.delete('/:code', key, guards.rateLimit('shortener.manage'), writable, requireParsedBody, validate(...deleteShortUrlValidation), deleteShortUrlHandler(shortUrls));
  app.use(undecodableCodeHandler);
}
