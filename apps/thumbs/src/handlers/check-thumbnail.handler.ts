import type { ThumbnailType } from '@pawlink/contracts';
import { ApiError, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { doneBody, failureError, processingBody, setPollHeaders } from '../http/thumbnail-responses.http.js';
import type { CheckThumbnailService } from '../services/check-thumbnail.service.js';

/** GET /check/:md5/:type (either order) — 201 done, 200 processing, 1068 / 1060 / 1065 for a kept failure, 1066 when nothing is known. */
export function checkThumbnailHandler(thumbnails: Pick<CheckThumbnailService, 'check'>): RequestHandler {
  return async (req, res) => {
    const { md5, type } = validated<{ md5: string; type: ThumbnailType }>(req);
    const state = await thumbnails.check(md5, type);
    res.setHeader('Cache-Control', 'no-store');
    switch (state.status) {
      case 'done':
        res.status(201).json(doneBody(state));
        return;
      case 'processing':
        setPollHeaders(res, state, false);
        res.status(200).json(processingBody(state));
        return;
      case 'failed':
      case 'notOnBoard':
        throw failureError(state);
      case 'missing':
        throw new ApiError('CHECK_NOT_FOUND');
    }
  };
}
