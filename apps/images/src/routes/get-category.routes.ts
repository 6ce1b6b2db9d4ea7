import type { AccessGuards } from '@pawlink/auth';
import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getCategoryHandler } from '../handlers/get-category.handler.js';
import type { GetCategoryService } from '../services/get-category.service.js';
import { getCategoryValidation } from '../validation/get-category.validation.js';

/** GET /categories/:db: public; a presented key must be valid and is what is limited. */
export function registerGetCategoryRoute(
  app: Express,
  { guards, getCategory }: { guards: AccessGuards; getCategory: GetCategoryService },
): void {
  app.get(
    '/categories/:db',
    guards.optionalKey(),
    guards.rateLimit('images.info'),
    validate(...getCategoryValidation),
    getCategoryHandler(getCategory),
  );
}
