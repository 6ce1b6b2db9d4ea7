import { BoardUnavailableError } from '@pawlink/board';
import { THUMBNAIL_FAILURE_REASONS, type ThumbnailFailure } from '@pawlink/contracts';
import { RetryableJobError, UnsupportedMediaError } from './thumbnail.errors.js';

/** The failure class of whatever a render threw: its own when it names one, else the board's or "internal". */
export function failureOf(error: unknown): ThumbnailFailure {
  if (error instanceof UnsupportedMediaError || error instanceof RetryableJobError) return error.failure;
  if (error instanceof BoardUnavailableError) return 'boardUnavailable';
  return 'internal';
}

/**
 * The fixed reason a job fails with for a failure class (contracts' THUMBNAIL_FAILURE_REASONS):
 * the API reads the class back from it (`thumbnailFailureOf`), so it is the sentence exactly.
 */
export const publicReasonOf = (failure: ThumbnailFailure): string => THUMBNAIL_FAILURE_REASONS[failure];
