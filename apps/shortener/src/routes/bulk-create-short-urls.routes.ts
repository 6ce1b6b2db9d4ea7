import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, requireParsedBody, requireWritable, validate, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { bulkCreateShortUrlsHandler } from '../handlers/bulk-create-short-urls.handler.js';
import type { BulkCreateShortUrlsService } from '../services/bulk-create-short-urls.service.js';
import { bulkCreateShortUrlsValidation, bulkCreateUnits } from '../validation/bulk-create-short-urls.validation.js';

export interface BulkCreateShortUrlsRouteDeps {
  bulkCreateShortUrls: BulkCreateShortUrlsService;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
}

/**
 * POST /create/bulk (docs/api.md): key → read-only → body → validation → rate limit → handler;
 * other methods 405. The rate limit comes after validation because it takes one unit of
 * `shortener.create` per item, all or nothing, and the items are known only once the body is read.
 */
export function registerBulkCreateShortUrlsRoute(
  app: Express,
  { bulkCreateShortUrls, guards, readOnly }: BulkCreateShortUrlsRouteDeps,
): void {
  app.post(
    '/create/bulk',
    guards.requireKey('shortener'),
    requireWritable(readOnly),
    requireParsedBody,
    validate(...bulkCreateShortUrlsValidation),
    guards.rateLimit('shortener.create', { units: bulkCreateUnits }),
    bulkCreateShortUrlsHandler(bulkCreateShortUrls),
  );
  app.all('/create/bulk', onlyMethods('POST'));
}
