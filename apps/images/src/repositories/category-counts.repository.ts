import type { CategoryRepository, CategoryWithContent } from './category.repository.js';
import type { ImageRepository } from './image.repository.js';

/** A category with whether it has content and its number of images. */
export interface CategoryTally extends CategoryWithContent {
  images: number;
}

/**
 * Every category with its image count, for the documentation page: one category list and one
 * GROUP BY, reused for `ttlMs` and shared by concurrent callers, so page views cost MySQL no more
 * than that once a while. A failure is not kept.
 */
export class CategoryCountsRepository {
  private cached: { value: Promise<CategoryTally[]>; expires: number } | undefined;

  constructor(
    private readonly categories: Pick<CategoryRepository, 'listWithContent'>,
    private readonly images: Pick<ImageRepository, 'countsByCategory'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  list(): Promise<CategoryTally[]> {
    const now = this.now();
    if (this.cached && this.cached.expires > now) return this.cached.value;
    // A page that is cached anyway may be a moment behind: both on the reader when there is one.
    const lagTolerant = { lagTolerant: true };
    const value = Promise.all([
      this.categories.listWithContent(lagTolerant),
      this.images.countsByCategory(lagTolerant),
    ]).then(([rows, counts]) => rows.map((row) => ({ ...row, images: counts.get(row.db) ?? 0 })));
    const entry = { value, expires: now + this.ttlMs };
    this.cached = entry;
    value.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return value;
  }
}
