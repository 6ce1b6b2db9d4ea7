import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getCategoryHandler } from '../handlers/get-category.handler.js';
import { listCategoriesHandler } from '../handlers/list-categories.handler.js';
import { categoryInfoValidation } from '../validation/categories.validation.js';
import type { ImagesRouteDeps } from './route-deps.js';

/** GET /categories and GET /categories/:db: public; a presented key must be valid and is what is limited. */
export function registerCategoryRoutes(app: Express, { guards, images }: ImagesRouteDeps): void {
  app.get('/categories', guards.optionalKey(), guards.rateLimit('images.info'), listCategoriesHandler(images));
  app.get('/categories/:db', guards.optionalKey(), guards.rateLimit('images.info'), validate(...categoryInfoValidation), getCategoryHandler(images));
}
