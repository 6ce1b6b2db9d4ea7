import type { ThumbnailInfoResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ThumbnailTarget } from '../services/thumbnail-id.rules.js';
import type { ThumbnailService } from '../services/thumbnail.service.js';
import { postRequesterOf } from './post-requester.js';
import { rethrowBoardUnavailable } from './thumbnail-responses.js';

/** GET /:id — which thumbnails exist for a post. */
export function getThumbnailInfoHandler(thumbnails: Pick<ThumbnailService, 'info'>): RequestHandler {
  return async (req, res) => {
    const { id } = validated<{ id: ThumbnailTarget }>(req);
    const { urls, thumbhash } = await thumbnails.info(id, postRequesterOf(req, res)).catch(rethrowBoardUnavailable);
    const body: ThumbnailInfoResponse = { success: true, gifURL: urls.gif, pngURL: urls.png, webpURL: urls.webp, thumbhash };
    res.json(body);
  };
}
