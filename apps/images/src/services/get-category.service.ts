import type { CategoryInfoResponse } from '@pawlink/contracts';
import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { CategoryCacheRepository } from '../repositories/category-cache.repository.js';

export interface GetCategoryServiceDeps {
  /** Category rows and type stats, trusted in process. */
  categoryCache: Pick<CategoryCacheRepository, 'find' | 'typeStats'>;
}

const MEBIBYTE = 1024 * 1024;
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** `GET /categories/:db`: one category with its files' figures. */
export class GetCategoryService {
  constructor(private readonly deps: GetCategoryServiceDeps) {}

  /** A category with its files' count, bytes and types; unknown → 1030. */
  async categoryInfo(db: string): Promise<CategoryInfoResponse['data']> {
    const row = await this.deps.categoryCache.find(db);
    if (!row) throw new ApiError('CATEGORY_NOT_FOUND');
    const stats = await this.deps.categoryCache.typeStats(db);
    const total = stats.reduce((sum, s) => sum + s.count, 0);
    const totalSize = stats.reduce((sum, s) => sum + s.totalSize, 0);
    const average = total === 0 ? 0 : Math.round(totalSize / total);
    const comment = row.disabled
      ? (row.disabledComment ?? 'Category is disabled.')
      : total === 0
        ? NEVER_HAD_CONTENT_COMMENT
        : undefined;
    return {
      name: row.name,
      db: row.db,
      sfw: row.sfw,
      disabled: comment !== undefined,
      ...(comment !== undefined ? { _comment: comment } : {}),
      files: {
        exists: total > 0,
        list: {
          total,
          size: {
            total: totalSize,
            totalM: round3(totalSize / MEBIBYTE),
            average,
            averageM: round3(average / MEBIBYTE),
          },
          types: Object.fromEntries(stats.map((s) => [s.mimeType, s.count])),
        },
      },
    };
  }
}
