import type { CategoriesResponse } from '@pawlink/contracts';
import type { RequestHandler } from 'express';
import type { ImagesService } from '../services/images.service.js';

/** GET /categories — enabled and disabled categories. */
export function listCategoriesHandler(images: Pick<ImagesService, 'listCategories'>): RequestHandler {
  return async (_req, res) => {
    const body: CategoriesResponse = { success: true, data: await images.listCategories() };
    res.json(body);
  };
}
