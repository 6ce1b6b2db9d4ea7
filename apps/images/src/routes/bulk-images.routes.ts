import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { requireBulkBody } from '../guards/bulk-images-body.guard.js';
import { bulkImagesHandler } from '../handlers/bulk-images.handler.js';
import type { BulkImagesService } from '../services/bulk-images.service.js';
import { bulkImagesValidation } from '../validation/bulk-images.validation.js';

/** POST /bulk: keys with `images_bulk` only. Not read-only affected (it writes nothing). */
export function registerBulkImagesRoute(
  app: Express,
  { guards, bulkImages }: { guards: AccessGuards; bulkImages: BulkImagesService },
): void {
  app.post(
    '/bulk',
    guards.requireKey('images_bulk'),
    guards.rateLimit('images.bulk'),
    requireBulkBody,
    validate(...bulkImagesValidation),
    bulkImagesHandler(bulkImages),
  );
  // `GET /:category` also matches `/bulk`: without this the shared 405 handler would list GET in `Allow`.
  app.all('/bulk', onlyMethods('POST'));
}
