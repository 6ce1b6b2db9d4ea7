import { ApiError, deferredBodyError } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';

/**
 * `POST /bulk`'s request-body step: requireParsedBody, except that the shared JSON parser is strict
 * (objects and arrays only): a body that is valid JSON but a bare string or number is a wrong bulk
 * body (1054), not malformed JSON (1026).
 */
export const requireBulkBody: RequestHandler = (_req, res, next) => {
  const bodyError = deferredBodyError(res);
  const { type, body: text } = (bodyError?.cause ?? {}) as { type?: string; body?: unknown };
  if (type === 'entity.parse.failed' && typeof text === 'string') {
    try {
      JSON.parse(text);
      next(new ApiError('BULK_INVALID_BODY'));
      return;
    } catch {
      // really malformed: 1026
    }
  }
  next(bodyError);
};
