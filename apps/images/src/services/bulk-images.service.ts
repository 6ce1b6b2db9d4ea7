import type { ImageRecord } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { CategoryCacheRepository } from '../repositories/category-cache.repository.js';
import { quotedKey } from '../domain/category-key.rules.js';
import { toImageRecord } from '../domain/image-record.rules.js';
import { refuseUnlessSfw } from '../domain/key-access.rules.js';
import { pickFilter, type PickOptions } from '../domain/pick-options.rules.js';
import type { RandomImagesService } from './random-images.service.js';

/** One category of a bulk request and the number of images wanted from it. */
export interface BulkRequest {
  db: string;
  count: number;
}

export interface BulkImagesServiceDeps {
  /** Category rows, trusted in process. */
  categoryCache: Pick<CategoryCacheRepository, 'find'>;
  /** The random pick of one category. */
  picks: Pick<RandomImagesService, 'pickRows'>;
  imagesMediaUrl: string;
}

/** `POST /bulk`: random images of many categories at once, up to the key's bulk limit. */
export class BulkImagesService {
  constructor(private readonly deps: BulkImagesServiceDeps) {}

  /**
   * The counts may add up to at most the key's `limit` (1056, naming both); every category must be
   * enabled with content (1055 names the first that is not) and, for an `sfw_only` key, SFW (1058
   * names the first that is not). `sizeLimit`, `type` and `exclude` apply to every category; one
   * with nothing that fits them gives an empty list, one with fewer than its count each fitting
   * image once.
   */
  async bulk(
    requests: readonly BulkRequest[],
    options: PickOptions & { limit: number; sizeLimit?: number | undefined },
  ): Promise<Record<string, ImageRecord[]>> {
    const total = requests.reduce((sum, r) => sum + r.count, 0);
    if (total > options.limit) {
      throw new ApiError('BULK_OVER_LIMIT', {
        message: `Bulk request total is above your limit: you asked for ${total} images and your limit is ${options.limit}.`,
      });
    }
    // Looked up together (up to 100 keys), checked in body order so 1055 names the first bad one.
    const rows = await Promise.all(requests.map(({ db }) => this.deps.categoryCache.find(db)));
    const invalid = requests.find((_, i) => !rows[i] || rows[i].disabled);
    if (invalid)
      throw new ApiError('BULK_INVALID_CATEGORY', {
        message: `Invalid category in bulk request: ${quotedKey(invalid.db)} does not exist or is disabled.`,
      });
    for (const row of rows) refuseUnlessSfw(options, row!);
    const filter = pickFilter(options);
    const picked = await Promise.all(
      requests.map(
        async ({ db, count }) => [db, await this.deps.picks.pickRows(db, count, options.sizeLimit, filter)] as const,
      ),
    );
    const data: Record<string, ImageRecord[]> = {};
    for (const [db, rows] of picked) {
      if (rows === 'empty')
        throw new ApiError('BULK_INVALID_CATEGORY', {
          message: `Invalid category in bulk request: ${quotedKey(db)} has no images.`,
        });
      data[db] = rows.map((r) => toImageRecord(r, this.deps.imagesMediaUrl));
    }
    return data;
  }
}
