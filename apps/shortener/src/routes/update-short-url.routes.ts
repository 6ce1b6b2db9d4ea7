import type { AccessGuards } from '@pawlink/auth';
import { requireParsedBody, requireWritable, validate, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { updateShortUrlHandler } from '../handlers/update-short-url.handler.js';
import type { UpdateShortUrlService } from '../services/update-short-url.service.js';
import { updateShortUrlValidation } from '../validation/update-short-url.validation.js';

export interface UpdateShortUrlRouteDeps {
  updateShortUrl: UpdateShortUrlService;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
}

/** PATCH /:code (docs/api.md): key → rate limit → read-only → body → validation → handler. */
export function registerUpdateShortUrlRoute(
  app: Express,
  { updateShortUrl, guards, readOnly }: UpdateShortUrlRouteDeps,
): void {
  app.patch(
    '/:code',
    guards.requireKey('shortener'),
    guards.rateLimit('shortener.manage'),
    requireWritable(readOnly),
    requireParsedBody,
    validate(...updateShortUrlValidation),
    updateShortUrlHandler(updateShortUrl),
  );
}
