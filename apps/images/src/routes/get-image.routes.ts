import type { AccessGuards } from '@pawlink/auth';
import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getImageHandler } from '../handlers/get-image.handler.js';
import type { GetImageService } from '../services/get-image.service.js';
import { getImageValidation } from '../validation/get-image.validation.js';

/** GET /images/:id.json: public. */
export function registerGetImageRoute(
  app: Express,
  { guards, getImage }: { guards: AccessGuards; getImage: GetImageService },
): void {
  app.get(
    '/images/:id.json',
    guards.optionalKey(),
    guards.rateLimit('images.info'),
    validate(...getImageValidation),
    getImageHandler(getImage),
  );
}
