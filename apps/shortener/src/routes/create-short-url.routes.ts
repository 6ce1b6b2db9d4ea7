import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, requireParsedBody, requireWritable, validate, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { createShortUrlHandler } from '../handlers/create-short-url.handler.js';
import type { CreateShortUrlService } from '../services/create-short-url.service.js';
import { createShortUrlValidation } from '../validation/create-short-url.validation.js';

export interface CreateShortUrlRouteDeps {
  createShortUrl: CreateShortUrlService;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
}

/** POST /create (docs/api.md): key → rate limit → read-only → body → validation → handler; other methods 405. */
export function registerCreateShortUrlRoute(
  app: Express,
  { createShortUrl, guards, readOnly }: CreateShortUrlRouteDeps,
): void {
  app.post(
    '/create',
    guards.requireKey('shortener'),
    guards.rateLimit('shortener.create'),
    requireWritable(readOnly),
    requireParsedBody,
    validate(...createShortUrlValidation),
    createShortUrlHandler(createShortUrl),
  );
  app.all('/create', onlyMethods('POST'));
}
