import { CategoriesResponseSchema, type CategoriesResponse } from '@pawlink/contracts';
import { json } from '@pawlink/contracts/openapi';
import { optionalKey, rateLimit, sendRevalidatableJson } from '@pawlink/service-kit';
import { IMAGES_TAGS, imagesEndpoint, REVALIDATION } from './images.deps.js';

/** GET /categories: public; a presented key must be valid and is what is limited. Enabled and disabled categories, with an ETag clients can revalidate. */
export const listCategoriesEndpoint = imagesEndpoint({
  operationId: 'listCategories',
  summary: 'Every category, enabled and disabled',
  tags: IMAGES_TAGS,
  method: 'get',
  path: '/categories',
  guards: [optionalKey(), rateLimit('images.info')],
  fields: {},
  parameters: [REVALIDATION.parameter],
  responses: {
    200: json('The categories.', CategoriesResponseSchema, REVALIDATION.etag),
    304: REVALIDATION.notModified,
  },
  handler:
    ({ services }) =>
    async ({ req, res }) => {
      const body: CategoriesResponse = { success: true, data: await services.listCategories.listCategories() };
      sendRevalidatableJson(req, res, body);
    },
});
