import type { ThumbnailDoneResponse } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { orderCheckSegments } from '../thumbnails/thumbnail-id.js';
import type { ThumbnailService } from '../thumbnails/thumbnail.service.js';
import { parseMd5Param, parseTypeParam } from './thumbnail-params.js';
import { failureError, processingBody, setPollHeaders } from './thumbnail-responses.js';

/** GET /check/:md5/:type (either order) — 201 done, 200 processing, 1066 when nothing is known. */
export function checkThumbnailHandler(thumbnails: ThumbnailService): RequestHandler<{ first: string; second: string }> {
  return async (req, res) => {
    const segments = orderCheckSegments(req.params.first, req.params.second);
    const md5 = parseMd5Param(segments.md5);
    const type = parseTypeParam(segments.type);
    const state = await thumbnails.check(md5, type);
    res.setHeader('Cache-Control', 'no-store');
    switch (state.status) {
      case 'done': {
        const body: ThumbnailDoneResponse = { success: true, status: 'done', url: state.url };
        res.status(201).json(body);
        return;
      }
      case 'processing':
        setPollHeaders(res, state, false);
        res.status(200).json(processingBody(state));
        return;
      case 'failed':
        throw failureError(state);
      case 'missing':
        throw new ApiError('CHECK_NOT_FOUND');
    }
  };
}
