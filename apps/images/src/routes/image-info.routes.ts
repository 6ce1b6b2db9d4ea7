import type { Express } from 'express';
import type { RouteContext } from './route-context.js';

/** GET /images/:id.json — one image with its category. */
export function registerImageInfoRoutes(router: Express, { service, optionalApiKey, rateLimit }: RouteContext): void {
  router.get('/images/:id.json', optionalApiKey(), rateLimit('images.info'), async (req, res) => {
    res.json({ success: true, data: await service.image(req.params.id as string) });
  });
}
