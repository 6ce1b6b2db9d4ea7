import { apiKeyOf } from '@pawlink/auth';
import type { ThumbnailType } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { postRequesterOf } from '../http/post-requester.http.js';
import {
  doneBody,
  failureError,
  processingBody,
  rethrowBoardUnavailable,
  setPollHeaders,
} from '../http/thumbnail-responses.http.js';
import type { CreateThumbnailService } from '../services/create-thumbnail.service.js';
import type { ThumbnailTarget } from '../services/thumbnail-id.rules.js';

/** PUT /:id/:type[?callbackURL=] — 200 when the file exists, else 202 with the (new or existing) job's estimate. */
export function createThumbnailHandler(thumbnails: Pick<CreateThumbnailService, 'request'>): RequestHandler {
  return async (req, res) => {
    const { id, type, callbackURL } = validated<{ id: ThumbnailTarget; type: ThumbnailType; callbackURL?: URL }>(req);
    const apiKey = apiKeyOf(res);
    // Every thumbs route requires a key, so a callback always has one to be signed with.
    const callback = callbackURL && apiKey ? { url: callbackURL, apiKeyId: apiKey.id } : undefined;
    const state = await thumbnails
      .request(id, type, postRequesterOf(req, res), callback)
      .catch(rethrowBoardUnavailable);
    res.setHeader('Cache-Control', 'no-store');
    if (state.status === 'failed' || state.status === 'notOnBoard') throw failureError(state);
    if (state.status === 'done') {
      res.status(200).json(doneBody(state));
      return;
    }
    setPollHeaders(res, state, true);
    res.status(202).json(processingBody(state));
  };
}
