import { ApiError } from '@pawlink/service-kit';
import type { ErrorRequestHandler } from 'express';
import { sendPreviewNotFound, sendUnknownCode } from './public-answers.http.js';

const ONE_SEGMENT = /^\/[^/]+$/;

/**
 * `/%zz`, `/%00x%` and the like cannot be decoded into a code, so Express fails the `/:code…` match
 * with a URIError before any handler runs (the shared renderer would answer 1024). They are still
 * unknown codes: the redirect's text 404, the preview's HTML 404, the JSON form's 1075. No such
 * string can be a code, so answering before the API key check tells nobody anything. app.ts
 * registers it after the short-url routes.
 */
export const answerUndecodableCode: ErrorRequestHandler = (error, req, res, next) => {
  if (!(error instanceof URIError) || (req.method !== 'GET' && req.method !== 'HEAD') || !ONE_SEGMENT.test(req.path)) {
    next(error);
    return;
  }
  if (req.path.endsWith('+')) sendPreviewNotFound(res);
  else if (req.path.endsWith('.json')) next(new ApiError('SHORT_URL_NOT_FOUND'));
  else sendUnknownCode(res);
};
