import {
  Errors,
  thumbnailFailureReportOf,
  thumbnailFileName,
  thumbnailOfJobId,
  THUMBNAIL_TYPES,
  type ThumbnailCallbackEvent,
  type ThumbnailType,
} from '@pawlink/contracts';

/** How a thumbnail job ended, as its queue's event stream says. */
export type ThumbnailJobEnd = { kind: 'completed' } | { kind: 'failed'; failedReason: string };

/**
 * The callback body for the end of thumbnail job `jobId` at `at` (unix ms): done with the file's
 * URL under MEDIA_URL, or failed / timeout with the code and message `GET /check` answers for it.
 * Undefined for a job id that is not a thumbnail's.
 */
export function callbackEventOf(
  jobId: string,
  end: ThumbnailJobEnd,
  at: number,
  mediaUrl: string,
): ThumbnailCallbackEvent | undefined {
  const thumbnail = thumbnailOfJobId(jobId);
  if (!thumbnail || !(THUMBNAIL_TYPES as readonly string[]).includes(thumbnail.type)) return undefined;
  const md5 = thumbnail.md5;
  const type = thumbnail.type as ThumbnailType;
  if (end.kind === 'completed')
    return {
      event: 'thumbnail.done',
      md5,
      type,
      url: `${mediaUrl}/${thumbnailFileName(md5, type)}`,
      code: null,
      error: null,
      at,
    };
  const report = thumbnailFailureReportOf(end.failedReason);
  if (report.kind === 'notOnBoard')
    return {
      event: 'thumbnail.failed',
      md5,
      type,
      url: null,
      code: Errors.POST_NOT_ON_BOARD.code,
      error: Errors.POST_NOT_ON_BOARD.message,
      at,
    };
  if (report.kind === 'timeout')
    return {
      event: 'thumbnail.timeout',
      md5,
      type,
      url: null,
      code: Errors.THUMBNAIL_TIMEOUT.code,
      error: report.reason,
      at,
    };
  return {
    event: 'thumbnail.failed',
    md5,
    type,
    url: null,
    code: Errors.THUMBNAIL_ERROR.code,
    error: report.reason,
    at,
  };
}
