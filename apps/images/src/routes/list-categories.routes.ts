import type { AccessGuards } from '@pawlink/auth';
import type { Express } from 'express';
import { listCategoriesHandler } from '../handlers/list-categories.handler.js';
import type { ListCategoriesService } from '../services/list-categories.service.js';

/** GET /categories: public; a presented key must be valid and is what is limited. */
export function registerListCategoriesRoute(
  app: Express,
  { guards, listCategories }: { guards: AccessGuards; listCategories: ListCategoriesService },
): void {
  app.get('/categories', guards.optionalKey(), guards.rateLimit('images.info'), listCategoriesHandler(listCategories));
}
