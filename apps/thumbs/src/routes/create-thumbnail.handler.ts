import type { ThumbnailDoneResponse } from '@pawlink/contracts';
import type { RequestHandler } from 'express';
import type { PostResolver } from '../thumbnails/post-resolver.js';
import type { ThumbnailService } from '../thumbnails/thumbnail.service.js';
import { md5OfTarget, parseIdParam, parseTypeParam } from './thumbnail-params.js';
import { failureError, processingBody, setPollHeaders } from './thumbnail-responses.js';

/** PUT /:id/:type — 200 when the file exists, else 202 with the (new or existing) job's estimate. */
export function createThumbnailHandler(thumbnails: ThumbnailService, posts: PostResolver): RequestHandler<{ id: string; type: string }> {
  return async (req, res) => {
    const target = parseIdParam(req.params.id);
    const type = parseTypeParam(req.params.type);
    const md5 = await md5OfTarget(target, posts);
    const state = await thumbnails.request(md5, type, 'postId' in target ? target.postId : undefined);
    res.setHeader('Cache-Control', 'no-store');
    if (state.status === 'failed') throw failureError(state);
    if (state.status === 'done') {
      const body: ThumbnailDoneResponse = { success: true, status: 'done', url: state.url };
      res.status(200).json(body);
      return;
    }
    setPollHeaders(res, state, true);
    res.status(202).json(processingBody(state));
  };
}
