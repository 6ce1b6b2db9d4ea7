import { onlyMethods, validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getBulkImagesHandler } from '../handlers/get-bulk-images.handler.js';
import { bulkValidation, requireBulkBody } from '../validation/bulk.validation.js';
import type { ImagesRouteDeps } from './route-deps.js';

/** POST /bulk: keys with `images_bulk` only. Not read-only affected (it writes nothing). */
export function registerBulkRoutes(app: Express, { guards, images }: ImagesRouteDeps): void {
  app.post('/bulk', guards.requireKey('images_bulk'), guards.rateLimit('images.bulk'), requireBulkBody, validate(...bulkValidation), getBulkImagesHandler(images));
  // `GET /:category` also matches `/bulk`: without this the shared 405 handler would list GET in `Allow`.
  app.all('/bulk', onlyMethods('POST'));
}
