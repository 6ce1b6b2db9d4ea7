import type { CategoryCountsRepository } from '../repositories/category-counts.repository.js';

/** How long the documentation page's category counts are reused: a page view costs no more than one GROUP BY a while. */
export const CATEGORY_COUNTS_CACHE_MS = 30_000;

/** A category and its number of images, as the documentation page lists it. */
export interface CategoryCount {
  name: string;
  db: string;
  images: number;
  enabled: boolean;
}

export interface CategoryCountsServiceDeps {
  /** Reused for CATEGORY_COUNTS_CACHE_MS. */
  counts: Pick<CategoryCountsRepository, 'list'>;
}

/** The documentation page's table of categories (`GET /` in a browser): no endpoint of its own. */
export class CategoryCountsService {
  constructor(private readonly deps: CategoryCountsServiceDeps) {}

  /** Every category with its image count, enabled first, then by key; at most CATEGORY_COUNTS_CACHE_MS old. */
  async categoryCounts(): Promise<CategoryCount[]> {
    return (await this.deps.counts.list())
      .map((row) => ({ name: row.name, db: row.db, images: row.images, enabled: !row.disabled && row.hasContent }))
      .sort((a, b) => Number(b.enabled) - Number(a.enabled) || a.db.localeCompare(b.db));
  }
}
