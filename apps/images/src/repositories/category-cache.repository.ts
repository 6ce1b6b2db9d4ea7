import type { CategoryRow } from '../db/entities/category.entity.js';
import { isCategoryKey } from '../domain/category-key.rules.js';
import type { CategoryRepository, TypeStats } from './category.repository.js';

/** Rows kept at most; past it the cache starts over (categories are few, keys that name none never get in). */
const MAX_ROWS = 10_000;

/**
 * What the public endpoints read of a category, trusted in process for `ttlMs`
 * (IMAGES_CATEGORY_CACHE_MS; 0 asks MySQL every time): its row, and its files' count and bytes per
 * type. Shared by every operation that looks a category up, so a change an operator makes shows
 * everywhere within the same time.
 */
export class CategoryCacheRepository {
  private readonly rows = new Map<string, { row: CategoryRow | null; expires: number }>();
  private readonly stats = new Map<string, { stats: Promise<TypeStats[]>; expires: number }>();

  constructor(
    private readonly categories: Pick<CategoryRepository, 'find' | 'typeStats'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The category `db` names, or null; a key that cannot name one is null without asking MySQL (`isCategoryKey`). */
  async find(db: string): Promise<CategoryRow | null> {
    if (!isCategoryKey(db)) return null;
    const ttl = this.ttlMs;
    const hit = ttl > 0 ? this.rows.get(db) : undefined;
    if (hit && hit.expires > this.now()) return hit.row;
    const row = await this.categories.find(db);
    if (ttl > 0) {
      if (this.rows.size > MAX_ROWS) this.rows.clear();
      this.rows.set(db, { row, expires: this.now() + ttl });
    }
    return row;
  }

  /**
   * Count and bytes per type, which MySQL aggregates over the whole category: trusted as long as a
   * category row, and shared by concurrent requests, so a public endpoint cannot keep MySQL
   * scanning a category of millions. Asked only for categories that exist, so the map stays as
   * small as the category list.
   */
  typeStats(db: string): Promise<TypeStats[]> {
    const now = this.now();
    const hit = this.stats.get(db);
    if (hit && hit.expires > now) return hit.stats;
    const stats = this.categories.typeStats(db, { lagTolerant: true });
    this.stats.set(db, { stats, expires: now + this.ttlMs });
    stats.catch(() => {
      if (this.stats.get(db)?.stats === stats) this.stats.delete(db);
    });
    return stats;
  }
}
