import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getImageHandler } from '../handlers/get-image.handler.js';
import { imageInfoValidation } from '../validation/image-info.validation.js';
import type { ImagesRouteDeps } from './route-deps.js';

/** GET /images/:id.json: public. */
export function registerImageInfoRoutes(app: Express, { guards, images }: ImagesRouteDeps): void {
  app.get('/images/:id.json', guards.optionalKey(), guards.rateLimit('images.info'), validate(...imageInfoValidation), getImageHandler(images));
}
