import { IMAGE_BYTES_HEADERS, RandomImagesResponseSchema, type RandomImagesResponse } from '@pawlink/contracts';
import { json, type HeaderObject, type JsonResponse } from '@pawlink/contracts/openapi';
import { optionalKey, rateLimit } from '@pawlink/service-kit';
import { NOTES } from '../domain/notes.policy.js';
import { prefersImage } from '../http/content-negotiation.http.js';
import { imageBytesHeaders } from '../http/image-headers.http.js';
import { keyAccessOf } from '../http/key-access.http.js';
import { sendWholeFile } from '../http/send-whole-file.http.js';
import { amount, notes, pickedCategory } from './images.fields.js';
import { IMAGES_TAGS, imagesEndpoint } from './images.deps.js';
import { pickOptionsQuery } from './pick-options.fields.js';

const imageHeaders: Record<string, HeaderObject> = Object.fromEntries(
  IMAGE_BYTES_HEADERS.map((name) => [
    name,
    {
      description:
        'With image bytes only: describes the image sent (percent-encoded outside printable ASCII). Each value at most 1024 bytes, all `X-Yiffy-*` lines together at most 2048; ' +
        'a list that does not fit ends with `+N more` (the JSON form has it whole), a single value that does not fit is empty.',
      required: false,
      schema: { type: 'string', maxLength: 1024 },
    },
  ]),
);

const images = json('Random images (JSON), or one image as bytes.', RandomImagesResponseSchema, imageHeaders);
/** The JSON answer or, when the client prefers an image, the bytes of one. */
const imagesOrBytes: JsonResponse<RandomImagesResponse> = {
  ...images,
  content: { ...images.content, 'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } } },
};

/**
 * GET /:category (dotted, `/furry.yiff.gay`) and GET /*category (slashed, `/furry/yiff/gay`, the
 * segments as an array): public. Random images as JSON, or the bytes of one image with its
 * `X-Yiffy-*` headers when the client prefers an image type over JSON. The query values are
 * reported before the category. Mounted last: these paths take any other GET.
 */
export const randomImagesEndpoint = imagesEndpoint({
  operationId: 'randomImages',
  summary: 'Random images from a category',
  description:
    'The category key with dots (`/furry.hug`) or with slashes (`/furry/hug`: the variable spans segments). ' +
    'A key with the `sfw_only` flag gets 403 1058 for a category that is not SFW. ' +
    'JSON by default; when `Accept` ranks an image type above JSON and HTML (`Accept: image/*`), the bytes of one random image with `X-Yiffy-*` headers.',
  tags: IMAGES_TAGS,
  method: 'get',
  path: '/:category',
  spanningPath: '/*category',
  guards: [optionalKey(), rateLimit('images.random')],
  // `notes` never fails: where it stands among the query values changes no answer.
  fields: { amount: amount(), notes: notes(), ...pickOptionsQuery(), category: pickedCategory() },
  responses: { 200: imagesOrBytes },
  errors: ['SFW_ONLY_KEY', 'NO_RESULTS', 'UNKNOWN_ROUTE'],
  handler:
    ({ services: { randomImages } }) =>
    async ({ input: { category, amount, sizeLimit, notes, type, exclude }, req, res }) => {
      const options = { ...keyAccessOf(res), type, exclude };
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Vary', 'Accept');
      if (prefersImage(req.headers.accept)) {
        const { image, file } = await randomImages.randomFile(category, sizeLimit, options);
        await sendWholeFile(req, res, file, { 'Content-Type': image.type, ...imageBytesHeaders(image) });
        return;
      }
      return {
        status: 200,
        body: {
          success: true,
          images: await randomImages.random(category, amount, sizeLimit, options),
          notes: notes === 'disabled' ? [] : [...NOTES],
        },
      };
    },
});
