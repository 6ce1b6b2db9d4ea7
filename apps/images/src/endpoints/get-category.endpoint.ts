import { CategoryInfoResponseSchema, type CategoryInfoResponse } from '@pawlink/contracts';
import { json } from '@pawlink/contracts/openapi';
import { optionalKey, rateLimit, sendRevalidatableJson } from '@pawlink/service-kit';
import { categoryKey } from './images.fields.js';
import { IMAGES_TAGS, imagesEndpoint, REVALIDATION } from './images.deps.js';

/** GET /categories/:db: public; one category with its files' figures, with an ETag clients can revalidate; 404 1030. */
export const getCategoryEndpoint = imagesEndpoint({
  operationId: 'getCategory',
  summary: "A category and its files' count, size and types",
  tags: IMAGES_TAGS,
  method: 'get',
  path: '/categories/:db',
  guards: [optionalKey(), rateLimit('images.info')],
  fields: { db: categoryKey() },
  parameters: [REVALIDATION.parameter],
  responses: {
    200: json('The category.', CategoryInfoResponseSchema, REVALIDATION.etag),
    304: REVALIDATION.notModified,
  },
  errors: ['UNKNOWN_ROUTE'],
  handler:
    ({ services }) =>
    async ({ input: { db }, req, res }) => {
      const body: CategoryInfoResponse = { success: true, data: await services.getCategory.categoryInfo(db) };
      sendRevalidatableJson(req, res, body);
    },
});
