import type { CategoryInfoResponse } from '@pawlink/contracts';
import { sendRevalidatableJson, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ImagesService } from '../services/images.service.js';
import type { CategoryInfoInput } from '../validation/categories.validation.js';

/** GET /categories/:db — one category with its files' figures, with an ETag clients can revalidate. */
export function getCategoryHandler(images: Pick<ImagesService, 'categoryInfo'>): RequestHandler {
  return async (req, res) => {
    const { db } = validated<CategoryInfoInput>(req);
    const body: CategoryInfoResponse = { success: true, data: await images.categoryInfo(db) };
    sendRevalidatableJson(req, res, body);
  };
}
