import type { ApiKeyAuth, RateLimit } from '@pawlink/auth';
import { requireParsedBody, requireWritable, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { PostResolver } from '../thumbnails/post-resolver.js';
import type { ThumbnailService } from '../thumbnails/thumbnail.service.js';
import { checkThumbnailHandler } from './check-thumbnail.handler.js';
import { createThumbnailHandler } from './create-thumbnail.handler.js';
import { getThumbnailInfoHandler } from './get-thumbnail-info.handler.js';

export interface ThumbsRouteDeps {
  auth: ApiKeyAuth;
  rateLimit: RateLimit;
  readOnly: ReadOnlySwitch;
  thumbnails: ThumbnailService;
  posts: PostResolver;
}

/** API.md §4. Order on every route: auth → rate limit → read-only → validation → handler. */
export function registerThumbsRoutes(app: Express, deps: ThumbsRouteDeps): void {
  const key = deps.auth.requireApiKey('thumbs');
  const writable = requireWritable(deps.readOnly);
  // /check/... is registered first so its three segments never reach the /:id routes.
  app.get('/check/:first/:second', key, deps.rateLimit('thumbs.check'), writable, checkThumbnailHandler(deps.thumbnails));
  app.get('/:id', key, deps.rateLimit('thumbs.info'), getThumbnailInfoHandler(deps.thumbnails, deps.posts));
  // PUT takes no body, but one that cannot be read is still refused (1026/1027), not ignored.
  app.put('/:id/:type', key, deps.rateLimit('thumbs.create'), writable, requireParsedBody, createThumbnailHandler(deps.thumbnails, deps.posts));
}
