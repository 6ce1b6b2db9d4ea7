import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { listShortUrlsHandler } from '../handlers/list-short-urls.handler.js';
import type { ListShortUrlsService } from '../services/list-short-urls.service.js';
import { listShortUrlsValidation } from '../validation/list-short-urls.validation.js';

export interface ListShortUrlsRouteDeps {
  listShortUrls: ListShortUrlsService;
  guards: AccessGuards;
}

/** GET /links (docs/api.md): key → rate limit → validation → handler; other methods 405. `links` is a reserved code. */
export function registerListShortUrlsRoute(app: Express, { listShortUrls, guards }: ListShortUrlsRouteDeps): void {
  app.get(
    '/links',
    guards.requireKey('shortener'),
    guards.rateLimit('shortener.read'),
    validate(...listShortUrlsValidation),
    listShortUrlsHandler(listShortUrls),
  );
  app.all('/links', onlyMethods('GET', 'HEAD'));
}
