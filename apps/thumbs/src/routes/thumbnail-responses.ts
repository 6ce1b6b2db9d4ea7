import type { ThumbnailProcessingResponse } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { Response } from 'express';
import type { ThumbnailState } from '../thumbnails/thumbnail.service.js';

type Processing = Extract<ThumbnailState, { status: 'processing' }>;

export function processingBody(state: Processing): ThumbnailProcessingResponse {
  return {
    success: true,
    status: 'processing',
    md5: state.md5,
    checkURL: state.checkURL,
    checkAt: state.checkAt,
    time: state.time,
    startedAt: state.startedAt,
    progress: state.progress,
  };
}

/** Polling hints: clients and proxies may rely on these instead of the body. */
export function setPollHeaders(res: Response, state: Processing, withLocation: boolean): void {
  if (withLocation) res.setHeader('Location', state.checkURL);
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(state.time / 1000))));
}

/** 500 1060 / 408 1065 with the `status` field API.md lists. */
export function failureError(state: Extract<ThumbnailState, { status: 'failed' }>): ApiError {
  return state.timedOut
    ? new ApiError('THUMBNAIL_TIMEOUT', { message: state.reason, status: 'timeout' })
    : new ApiError('THUMBNAIL_ERROR', { message: state.reason, status: 'error' });
}
