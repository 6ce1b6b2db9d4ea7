import type { Express } from 'express';
import type { RouteContext } from './route-context.js';

/** GET /categories and GET /categories/:db. */
export function registerCategoryRoutes(router: Express, { service, optionalApiKey, rateLimit }: RouteContext): void {
  router.get('/categories', optionalApiKey(), rateLimit('images.info'), async (_req, res) => {
    res.json({ success: true, data: await service.listCategories() });
  });

  router.get('/categories/:db', optionalApiKey(), rateLimit('images.info'), async (req, res) => {
    res.json({ success: true, data: await service.categoryInfo(req.params.db as string) });
  });
}
