import { verifyManagementCode } from '@pawlink/auth';
import { ApiError } from '@pawlink/service-kit';
import type { ShortUrl } from '../db/entities/short-url.entity.js';

/**
 * The entry an edit or a delete may change: it exists (1075), has a management code (1077), and
 * `presented` is that code (1078).
 */
export function authorisedEntry(entry: ShortUrl | null, presented: string): ShortUrl {
  if (!entry) throw new ApiError('SHORT_URL_NOT_FOUND');
  if (entry.managementCodeHash === null) throw new ApiError('NO_MANAGEMENT_CODE');
  if (!verifyManagementCode(presented, entry.managementCodeHash)) throw new ApiError('MANAGEMENT_CODE_MISMATCH');
  return entry;
}
