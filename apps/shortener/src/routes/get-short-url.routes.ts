import type { AccessGuards } from '@pawlink/auth';
import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getShortUrlHandler } from '../handlers/get-short-url.handler.js';
import type { GetShortUrlService } from '../services/get-short-url.service.js';
import { getShortUrlValidation } from '../validation/get-short-url.validation.js';

export interface GetShortUrlRouteDeps {
  getShortUrl: GetShortUrlService;
  guards: AccessGuards;
}

/** GET /:code.json (docs/api.md): key → rate limit → validation → handler. */
export function registerGetShortUrlRoute(app: Express, { getShortUrl, guards }: GetShortUrlRouteDeps): void {
  app.get(
    '/:code.json',
    guards.requireKey('shortener'),
    guards.rateLimit('shortener.read'),
    validate(...getShortUrlValidation),
    getShortUrlHandler(getShortUrl),
  );
}
