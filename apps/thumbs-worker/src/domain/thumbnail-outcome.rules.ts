import { THUMBNAIL_TYPES, isThumbnailTimeout, thumbnailFailureOf } from '@pawlink/contracts';

/** The `type` label of a job: its thumbnail type, or `other` for data that names none. */
export const jobTypeLabel = (type: unknown): string =>
  typeof type === 'string' && (THUMBNAIL_TYPES as readonly string[]).includes(type) ? type : 'other';

/**
 * The `outcome` label of a failed attempt: `timeout`, the failure class its reason names
 * (`notOnBoard`, `download`, `unreadable`, … as THUMBNAIL_FAILURE_REASONS), `stalled` when BullMQ
 * gave up on a job that kept losing its worker, else `failed`.
 */
export function thumbnailFailureOutcomeOf(failedReason: string | undefined): string {
  const reason = failedReason ?? '';
  if (isThumbnailTimeout(reason)) return 'timeout';
  const failure = thumbnailFailureOf(reason);
  if (failure !== undefined) return failure;
  return /stalled more than allowable limit/i.test(reason) ? 'stalled' : 'failed';
}
