import { ApiError } from '@pawlink/service-kit';

export interface BulkRequest {
  db: string;
  count: number;
}

const MAX_CATEGORIES = 100;

/**
 * A bulk body is a non-empty plain object of category keys to positive integer counts
 * (JSON numbers, not strings); anything else is 1054.
 */
export function parseBulkBody(body: unknown): BulkRequest[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype) {
    throw new ApiError('BULK_INVALID_BODY');
  }
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length === 0) throw new ApiError('BULK_INVALID_BODY', { message: 'Invalid bulk request body: no categories were given.' });
  if (entries.length > MAX_CATEGORIES) throw new ApiError('BULK_INVALID_BODY', { message: `Invalid bulk request body: at most ${MAX_CATEGORIES} categories per request.` });
  return entries.map(([db, count]) => {
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
      throw new ApiError('BULK_INVALID_BODY', { message: `Invalid bulk request body: the count for "${db.slice(0, 100)}" must be a positive integer.` });
    }
    return { db, count };
  });
}

/** The sum of counts; the caller compares it with the key's bulk limit (1056). */
export const bulkTotal = (requests: readonly BulkRequest[]): number => requests.reduce((sum, r) => sum + r.count, 0);
