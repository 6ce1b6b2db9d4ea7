import {
  ThumbnailDoneSchema,
  ThumbnailProcessingSchema,
  type ThumbnailDoneResponse,
  type ThumbnailProcessingResponse,
} from '@pawlink/contracts';
import { header, json } from '@pawlink/contracts/openapi';
import { ApiError } from '@pawlink/service-kit';
import type { Response } from 'express';
import { PostShareUsedError, PostUnavailableError } from '../domain/post-lookup.errors.js';
import type { ThumbnailState } from '../domain/thumbnail-state.rules.js';

/** How long a client should wait before asking again when the board could not resolve a post id. */
const BOARD_RETRY_AFTER_SECONDS = '5';

type Processing = Extract<ThumbnailState, { status: 'processing' }>;

/** The headers of the thumbnail answers: never cached; a processing answer says when to ask again. */
const noStore = { 'Cache-Control': header('Cache-Control', true) };
const poll = { ...noStore, 'Retry-After': header('Retry-After', true) };

export const doneAnswer = (description: string) => json(description, ThumbnailDoneSchema, noStore);
export const processingAnswer = (description: string, options: { location?: boolean } = {}) =>
  json(
    description,
    ThumbnailProcessingSchema,
    options.location ? { ...poll, Location: header('Location', true) } : poll,
  );

export function doneBody(state: Extract<ThumbnailState, { status: 'done' }>): ThumbnailDoneResponse {
  return { success: true, status: 'done', url: state.url };
}

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

/** 500 1060 / 408 1065 with the `status` field docs/api.md lists; 404 1068 for a post the board does not have. */
export function failureError(state: Extract<ThumbnailState, { status: 'failed' | 'notOnBoard' }>): ApiError {
  if (state.status === 'notOnBoard') return new ApiError('POST_NOT_ON_BOARD');
  return state.timedOut
    ? new ApiError('THUMBNAIL_TIMEOUT', { message: state.reason, status: 'timeout' })
    : new ApiError('THUMBNAIL_ERROR', { message: state.reason, status: 'error' });
}

/**
 * Use as `.catch(rethrowBoardUnavailable)`: a post id the board could not resolve right now
 * (unreachable, timed out, failing, no request slot free soon enough) is 503 1067 with
 * Retry-After, since the request itself was fine and will work later; a requester holding its
 * share of the board budget is 429 1069, with Retry-After the seconds until its earliest booked
 * slot has passed (rounded up). Anything else passes through.
 */
export function rethrowBoardUnavailable(error: unknown): never {
  if (error instanceof PostShareUsedError) {
    throw new ApiError('BOARD_SHARE_USED', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) },
      cause: error,
    });
  }
  if (error instanceof PostUnavailableError)
    throw new ApiError('BOARD_UNAVAILABLE', { headers: { 'Retry-After': BOARD_RETRY_AFTER_SECONDS }, cause: error });
  throw error;
}
