import type { AccessGuards } from '@pawlink/auth';
import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getThumbnailInfoHandler } from '../handlers/get-thumbnail-info.handler.js';
import type { GetThumbnailInfoService } from '../services/get-thumbnail-info.service.js';
import { getThumbnailInfoValidation } from '../validation/get-thumbnail-info.validation.js';

export interface GetThumbnailInfoRouteDeps {
  guards: AccessGuards;
  thumbnailInfo: GetThumbnailInfoService;
}

/** GET /:id (docs/api.md, "Thumbnails"): key → rate limit → validation → handler. */
export function registerGetThumbnailInfoRoute(app: Express, deps: GetThumbnailInfoRouteDeps): void {
  const { guards } = deps;
  app.get(
    '/:id',
    guards.requireKey('thumbs'),
    guards.rateLimit('thumbs.info'),
    validate(...getThumbnailInfoValidation),
    getThumbnailInfoHandler(deps.thumbnailInfo),
  );
}
