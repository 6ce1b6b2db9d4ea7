import type { AccessGuards } from '@pawlink/auth';
import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { randomImagesHandler } from '../handlers/random-images.handler.js';
import type { RandomImagesService } from '../services/random-images.service.js';
import { randomImagesBySegmentsValidation, randomImagesValidation } from '../validation/random-images.validation.js';

/**
 * GET /:category (dotted, `/furry.yiff.gay`) and GET /*category (slashed, `/furry/yiff/gay`, the
 * segments as an array): public. Register last: these paths take any other GET.
 */
export function registerRandomImagesRoute(
  app: Express,
  { guards, randomImages }: { guards: AccessGuards; randomImages: RandomImagesService },
): void {
  const handler = randomImagesHandler(randomImages);
  app.get(
    '/:category',
    guards.optionalKey(),
    guards.rateLimit('images.random'),
    validate(...randomImagesValidation),
    handler,
  );
  app.get(
    '/*category',
    guards.optionalKey(),
    guards.rateLimit('images.random'),
    validate(...randomImagesBySegmentsValidation),
    handler,
  );
}
