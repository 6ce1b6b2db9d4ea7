import type { AccessGuards } from '@pawlink/auth';
import { requireParsedBody, requireWritable, validate, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { createThumbnailHandler } from '../handlers/create-thumbnail.handler.js';
import type { CreateThumbnailService } from '../services/create-thumbnail.service.js';
import { createThumbnailValidation } from '../validation/create-thumbnail.validation.js';

export interface CreateThumbnailRouteDeps {
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  createThumbnail: CreateThumbnailService;
}

/** PUT /:id/:type (docs/api.md, "Thumbnails"): key → rate limit → read-only → body → validation → handler. */
export function registerCreateThumbnailRoute(app: Express, deps: CreateThumbnailRouteDeps): void {
  const { guards } = deps;
  // PUT takes no body, but one that cannot be read is still refused (1026/1027), not ignored.
  app.put(
    '/:id/:type',
    guards.requireKey('thumbs'),
    guards.rateLimit('thumbs.create'),
    requireWritable(deps.readOnly),
    requireParsedBody,
    validate(...createThumbnailValidation),
    createThumbnailHandler(deps.createThumbnail),
  );
}
