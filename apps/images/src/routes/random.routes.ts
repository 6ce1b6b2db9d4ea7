import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getRandomImagesHandler } from '../handlers/get-random-images.handler.js';
import { randomImagesBySegmentsValidation, randomImagesValidation } from '../validation/random.validation.js';
import type { ImagesRouteDeps } from './route-deps.js';

/**
 * GET /:category (dotted, `/furry.yiff.gay`) and GET /*category (slashed, `/furry/yiff/gay`, the
 * segments as an array): public. Register last: these paths take any other GET.
 */
export function registerRandomRoutes(app: Express, { guards, images }: ImagesRouteDeps): void {
  const handler = getRandomImagesHandler(images);
  app.get('/:category', guards.optionalKey(), guards.rateLimit('images.random'), validate(...randomImagesValidation), handler);
  app.get('/*category', guards.optionalKey(), guards.rateLimit('images.random'), validate(...randomImagesBySegmentsValidation), handler);
}
