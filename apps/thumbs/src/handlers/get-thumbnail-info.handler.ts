import type { ThumbnailInfoResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { postRequesterOf } from '../http/post-requester.http.js';
import { rethrowBoardUnavailable } from '../http/thumbnail-responses.http.js';
import type { GetThumbnailInfoService } from '../services/get-thumbnail-info.service.js';
import type { ThumbnailTarget } from '../services/thumbnail-id.rules.js';

/** GET /:id — which thumbnails exist for a post. */
export function getThumbnailInfoHandler(thumbnails: Pick<GetThumbnailInfoService, 'info'>): RequestHandler {
  return async (req, res) => {
    const { id } = validated<{ id: ThumbnailTarget }>(req);
    const { urls, thumbhash } = await thumbnails.info(id, postRequesterOf(req, res)).catch(rethrowBoardUnavailable);
    const body: ThumbnailInfoResponse = {
      success: true,
      gifURL: urls.gif,
      pngURL: urls.png,
      webpURL: urls.webp,
      mp4URL: urls.mp4,
      thumbhash,
    };
    res.json(body);
  };
}
