import type { ImageWithCategory } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { CategoryCacheRepository } from '../repositories/category-cache.repository.js';
import type { ImageRowsRepository } from '../repositories/image-rows.repository.js';
import { toImageWithCategory } from '../domain/image-record.rules.js';
import { refuseUnlessSfw, type KeyAccess } from '../domain/key-access.rules.js';

export interface GetImageServiceDeps {
  /** Category rows, trusted in process. */
  categoryCache: Pick<CategoryCacheRepository, 'find'>;
  rows: Pick<ImageRowsRepository, 'byIds'>;
  imagesMediaUrl: string;
}

/** `GET /images/:id.json`: one image with its category. */
export class GetImageService {
  constructor(private readonly deps: GetImageServiceDeps) {}

  /**
   * One image by its id (a lower-case MD5) with its category; unknown → 1040. From the record
   * cache like random picks (MySQL on a miss, which then caches it). An `sfw_only` key asking for
   * an image of a category that is not SFW → 1058.
   */
  async image(id: string, access: KeyAccess = {}): Promise<ImageWithCategory> {
    const [row] = (await this.deps.rows.byIds([id])).found;
    if (!row) throw new ApiError('IMAGE_NOT_FOUND');
    if (access.sfwOnly) {
      const category = await this.deps.categoryCache.find(row.category);
      // Every image has its category (a foreign key): a missing one is no more SFW than any other.
      if (!category) throw new ApiError('SFW_ONLY_KEY');
      refuseUnlessSfw(access, category);
    }
    return toImageWithCategory(row, this.deps.imagesMediaUrl);
  }
}
