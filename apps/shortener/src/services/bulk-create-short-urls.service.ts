import type { BulkCreateItemResult } from '@pawlink/contracts';
import { isApiError } from '@pawlink/service-kit';
import type { CreateShortUrl, CreateShortUrlService } from './create-short-url.service.js';

/** One item as validation hands it over: a create to run, or the failure its checks found. */
export type BulkCreateItem =
  { ok: true; input: Omit<CreateShortUrl, 'editable' | 'ownerKeyId'> } | { ok: false; code: number; error: string };

export interface BulkCreateShortUrlsDeps {
  /** Each item is exactly one POST /create: same rules, same answers. */
  createShortUrl: Pick<CreateShortUrlService, 'create'>;
}

/** POST /create/bulk (docs/api.md). */
export class BulkCreateShortUrlsService {
  constructor(private readonly deps: BulkCreateShortUrlsDeps) {}

  /**
   * Runs the items one after the other, in order (a code or a fixed url used twice behaves as two
   * creates in a row), each answered as POST /create would have: its record (status 201, or 200
   * for a shared entry) or its contract failure. A failure that is not the client's (no contract
   * code: the database is gone) fails the whole request with 500, as it fails a single create.
   */
  async createAll(
    items: readonly BulkCreateItem[],
    options: { editable: boolean; ownerKeyId: number | null },
  ): Promise<BulkCreateItemResult[]> {
    const results: BulkCreateItemResult[] = [];
    for (const item of items) {
      if (!item.ok) {
        results.push({ success: false, code: item.code, error: item.error });
        continue;
      }
      try {
        const result = await this.deps.createShortUrl.create({
          ...item.input,
          editable: options.editable,
          ownerKeyId: options.ownerKeyId,
        });
        results.push({
          success: true,
          status: result.created ? 201 : 200,
          data: { ...result.record, managementCode: result.managementCode },
        });
      } catch (error) {
        if (!isApiError(error)) throw error;
        results.push({ success: false, code: error.code, error: error.message });
      }
    }
    return results;
  }
}
