import { ImageWithCategorySchema } from '@pawlink/contracts';
import { json, successWith } from '@pawlink/contracts/openapi';
import { optionalKey, rateLimit } from '@pawlink/service-kit';
import { keyAccessOf } from '../http/key-access.http.js';
import { imageId } from './images.fields.js';
import { IMAGES_TAGS, imagesEndpoint } from './images.deps.js';

/** GET /images/:id.json: public; one image with its category (403 1058 for an `sfw_only` key when the category is not SFW); 404 1040. */
export const getImageEndpoint = imagesEndpoint({
  operationId: 'getImage',
  summary: 'One image by its MD5',
  tags: IMAGES_TAGS,
  method: 'get',
  path: '/images/:id.json',
  guards: [optionalKey(), rateLimit('images.info')],
  fields: { id: imageId() },
  responses: { 200: json('The image with its category key.', successWith(ImageWithCategorySchema)) },
  errors: ['SFW_ONLY_KEY', 'UNKNOWN_ROUTE'],
  handler:
    ({ services }) =>
    async ({ input: { id }, res }) => ({
      status: 200,
      body: { success: true, data: await services.getImage.image(id, keyAccessOf(res)) },
    }),
});
