import type { CategoryInfoResponse } from '@pawlink/contracts';
import { sendRevalidatableJson, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { GetCategoryService } from '../services/get-category.service.js';
import type { GetCategoryInput } from '../validation/get-category.validation.js';

/** GET /categories/:db — one category with its files' figures, with an ETag clients can revalidate. */
export function getCategoryHandler(getCategory: Pick<GetCategoryService, 'categoryInfo'>): RequestHandler {
  return async (req, res) => {
    const { db } = validated<GetCategoryInput>(req);
    const body: CategoryInfoResponse = { success: true, data: await getCategory.categoryInfo(db) };
    sendRevalidatableJson(req, res, body);
  };
}
