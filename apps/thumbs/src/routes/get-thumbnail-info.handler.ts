import type { ThumbnailInfoResponse } from '@pawlink/contracts';
import type { RequestHandler } from 'express';
import type { PostResolver } from '../thumbnails/post-resolver.js';
import type { ThumbnailService } from '../thumbnails/thumbnail.service.js';
import { md5OfTarget, parseIdParam } from './thumbnail-params.js';

/** GET /:id — which thumbnails exist for a post. */
export function getThumbnailInfoHandler(thumbnails: ThumbnailService, posts: PostResolver): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const md5 = await md5OfTarget(parseIdParam(req.params.id), posts);
    const urls = await thumbnails.info(md5);
    const body: ThumbnailInfoResponse = { success: true, gifURL: urls.gif, pngURL: urls.png };
    res.json(body);
  };
}
