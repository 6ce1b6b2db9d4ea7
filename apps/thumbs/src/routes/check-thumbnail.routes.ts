import type { AccessGuards } from '@pawlink/auth';
import { requireWritable, validate, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { checkThumbnailHandler } from '../handlers/check-thumbnail.handler.js';
import type { CheckThumbnailService } from '../services/check-thumbnail.service.js';
import { checkThumbnailValidation } from '../validation/check-thumbnail.validation.js';

export interface CheckThumbnailRouteDeps {
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  checkThumbnail: CheckThumbnailService;
}

/** GET /check/:md5/:type (docs/api.md, "Thumbnails"): key → rate limit → read-only → validation → handler. */
export function registerCheckThumbnailRoute(app: Express, deps: CheckThumbnailRouteDeps): void {
  const { guards } = deps;
  app.get(
    '/check/:md5/:type',
    guards.requireKey('thumbs'),
    guards.rateLimit('thumbs.check'),
    requireWritable(deps.readOnly),
    validate(...checkThumbnailValidation),
    checkThumbnailHandler(deps.checkThumbnail),
  );
}
