import type { AccessGuards } from '@pawlink/auth';
import { requireParsedBody, requireWritable, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { PostResolver } from '../thumbnails/post-resolver.js';
import type { ThumbnailService } from '../thumbnails/thumbnail.service.js';
import { checkThumbnailHandler } from './check-thumbnail.handler.js';
import { createThumbnailHandler } from './create-thumbnail.handler.js';
import { getThumbnailInfoHandler } from './get-thumbnail-info.handler.js';

export interface ThumbsRouteDeps {
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  thumbnails: ThumbnailService;
  posts: PostResolver;
}

/** API.md §4. Order on every route: auth → rate limit → read-only → validation → handler. */
export function registerThumbsRoutes(app: Express, deps: ThumbsRouteDeps): void {
  const key = deps.guards.requireKey('thumbs');
  const writable = requireWritable(deps.readOnly);
  // /check/... is registered first so its three segments never reach the /:id routes.
  app.get('/check/:first/:second', key, deps.guards.rateLimit('thumbs.check'), writable, checkThumbnailHandler(deps.thumbnails));
  app.get('/:id', key, deps.guards.rateLimit('thumbs.info'), getThumbnailInfoHandler(deps.thumbnails, deps.posts));
  // PUT takes no body, but one that cannot be read is still refused (1026/1027), not ignored.
  app.put('/:id/:type', key, deps.guards.rateLimit('thumbs.create'), writable, requireParsedBody, createThumbnailHandler(deps.thumbnails, deps.posts));
}
