import type { AccessGuards } from '@pawlink/auth';
import { requireParsedBody, requireWritable, validate, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { checkThumbnailHandler } from '../handlers/check-thumbnail.handler.js';
import { createThumbnailHandler } from '../handlers/create-thumbnail.handler.js';
import { getThumbnailInfoHandler } from '../handlers/get-thumbnail-info.handler.js';
import type { ThumbnailService } from '../services/thumbnail.service.js';
import { checkThumbnailValidation, createThumbnailValidation, thumbnailInfoValidation } from '../validation/thumbnail.validation.js';

export interface ThumbnailRouteDeps {
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  thumbnails: ThumbnailService;
}

/** API.md §4. Order on every route: key → rate limit → read-only → body → validation → handler. */
export function registerThumbnailRoutes(app: Express, deps: ThumbnailRouteDeps): void {
  const { guards, thumbnails } = deps;
  const key = guards.requireKey('thumbs');
  const writable = requireWritable(deps.readOnly);
  // /check/... is registered first so its three segments never reach the /:id routes.
  app.get('/check/:md5/:type', key, guards.rateLimit('thumbs.check'), writable, validate(...checkThumbnailValidation), checkThumbnailHandler(thumbnails));
  app.get('/:id', key, guards.rateLimit('thumbs.info'), validate(...thumbnailInfoValidation), getThumbnailInfoHandler(thumbnails));
  // PUT takes no body, but one that cannot be read is still refused (1026/1027), not ignored.
  app.put('/:id/:type', key, guards.rateLimit('thumbs.create'), writable, requireParsedBody, validate(...createThumbnailValidation), createThumbnailHandler(thumbnails));
}
