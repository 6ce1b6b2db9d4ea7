import type { CategoriesResponse } from '@pawlink/contracts';
import { sendRevalidatableJson } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ListCategoriesService } from '../services/list-categories.service.js';

/** GET /categories — enabled and disabled categories, with an ETag clients can revalidate. */
export function listCategoriesHandler(listCategories: Pick<ListCategoriesService, 'listCategories'>): RequestHandler {
  return async (req, res) => {
    const body: CategoriesResponse = { success: true, data: await listCategories.listCategories() };
    sendRevalidatableJson(req, res, body);
  };
}
