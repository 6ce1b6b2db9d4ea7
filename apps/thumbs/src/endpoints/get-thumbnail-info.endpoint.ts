import { ThumbnailInfoSchema } from '@pawlink/contracts';
import { json } from '@pawlink/contracts/openapi';
import { inPath, rateLimit, requireKey } from '@pawlink/service-kit';
import { postRequesterOf } from '../http/post-requester.http.js';
import { rethrowBoardUnavailable } from '../http/thumbnail-responses.http.js';
import { thumbnailId } from './thumbnail.fields.js';
import { THUMBNAIL_TAGS, thumbsEndpoint } from './thumbs.deps.js';

/** GET /:id (docs/api.md, "Thumbnails"): key → rate limit → validation → handler: which thumbnails exist for a post. */
export const getThumbnailInfoEndpoint = thumbsEndpoint({
  operationId: 'getThumbnails',
  summary: 'Which thumbnails exist for a post',
  tags: THUMBNAIL_TAGS,
  method: 'get',
  path: '/:id',
  guards: [requireKey('thumbs'), rateLimit('thumbs.info')],
  fields: { id: inPath(thumbnailId()) },
  responses: { 200: json('The URLs, null where there is none yet.', ThumbnailInfoSchema) },
  errors: ['BOARD_SHARE_USED', 'BOARD_UNAVAILABLE', 'UNKNOWN_ROUTE'],
  handler:
    ({ services }) =>
    async ({ input: { id }, req, res }) => {
      const { urls, thumbhash } = await services.thumbnailInfo
        .info(id, postRequesterOf(req, res))
        .catch(rethrowBoardUnavailable);
      return {
        status: 200,
        body: {
          success: true,
          gifURL: urls.gif,
          pngURL: urls.png,
          webpURL: urls.webp,
          mp4URL: urls.mp4,
          thumbhash,
        },
      };
    },
});
