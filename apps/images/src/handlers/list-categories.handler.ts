import type { CategoriesResponse } from '@pawlink/contracts';
import { sendRevalidatableJson } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ImagesService } from '../services/images.service.js';

/** GET /categories — enabled and disabled categories, with an ETag clients can revalidate. */
export function listCategoriesHandler(images: Pick<ImagesService, 'listCategories'>): RequestHandler {
  return async (req, res) => {
    const body: CategoriesResponse = { success: true, data: await images.listCategories() };
    sendRevalidatableJson(req, res, body);
  };
}
