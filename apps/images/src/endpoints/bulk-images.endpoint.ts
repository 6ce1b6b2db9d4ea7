import { apiKeyOf } from '@pawlink/auth';
import { BulkImagesResponseSchema } from '@pawlink/contracts';
import { json } from '@pawlink/contracts/openapi';
import { rateLimit, requireKey, type Guard } from '@pawlink/service-kit';
import { requireBulkBody } from '../guards/bulk-images-body.guard.js';
import { keyAccessOf } from '../http/key-access.http.js';
import { bulkBody } from './images.fields.js';
import { IMAGES_TAGS, imagesEndpoint } from './images.deps.js';
import { pickOptionsQuery } from './pick-options.fields.js';

/** The body step of POST /bulk: a parsed body, and valid JSON that is no object is 1054, not 1026 (requireBulkBody). */
const bulkBodyParsed: Guard<unknown> = { doc: { readsBody: true }, use: () => requireBulkBody };

/**
 * POST /bulk: keys with `images_bulk` only; not read-only affected (it writes nothing).
 * `?sizeLimit`, `?type` and `?exclude` as on the random endpoint (for every category), reported
 * before the body. Other methods 405: `GET /:category` also matches `/bulk`, and without this the
 * shared 405 handler would list GET in `Allow`.
 */
export const bulkImagesEndpoint = imagesEndpoint({
  operationId: 'bulkImages',
  summary: 'Random images from several categories at once',
  description:
    "The total asked for may not exceed the key's bulk limit (default 100). `sizeLimit`, `type` and `exclude` apply to every category; a category where no image fits gets `[]`. A key with `sfw_only` gets 403 1058 naming the first category that is not SFW (nothing is picked).",
  tags: IMAGES_TAGS,
  method: 'post',
  path: '/bulk',
  refuseOtherMethods: true,
  guards: [requireKey('images_bulk'), rateLimit('images.bulk'), bulkBodyParsed],
  fields: { ...pickOptionsQuery(), ...bulkBody() },
  body: { description: 'Category key → number of images (a positive integer); at most 100 categories.' },
  responses: { 200: json('Images per category.', BulkImagesResponseSchema) },
  errors: ['BULK_INVALID_CATEGORY', 'BULK_OVER_LIMIT', 'SFW_ONLY_KEY'],
  handler:
    ({ services }) =>
    async ({ input: { sizeLimit, type, exclude, '': requests }, res }) => {
      // requireKey ran first, so there is a key; 0 would refuse everything if there were not.
      const limit = apiKeyOf(res)?.bulkLimit ?? 0;
      res.setHeader('Cache-Control', 'no-store');
      const data = await services.bulkImages.bulk(requests, { ...keyAccessOf(res), limit, sizeLimit, type, exclude });
      return { status: 200, body: { success: true, data } };
    },
});
