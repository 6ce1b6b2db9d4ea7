import type { ImageRow } from '../db/entities/image.entity.js';
import type { ImageRepository } from './image.repository.js';
import type { RecordCacheRepository } from './record-cache.repository.js';

/** Rows found for some ids, in the order asked, and the ids that have none. */
export interface ImageRowsById {
  found: ImageRow[];
  missing: string[];
}

/**
 * Image rows by id the way the public endpoints read them: from the record cache (Redis), the rest
 * from MySQL by primary key, which are then cached. MySQL stays off the hot path once a record is
 * cached.
 */
export class ImageRowsRepository {
  constructor(
    private readonly records: Pick<RecordCacheRepository, 'getMany' | 'setMany'>,
    private readonly images: Pick<ImageRepository, 'findByIds'>,
  ) {}

  /**
   * The rows of `ids` in that order, and the ids MySQL has no row for. `cached` is what the record
   * cache already gave (a random pick reads it in its script); without it the cache is asked first.
   */
  async byIds(ids: readonly string[], cached?: Map<string, ImageRow>): Promise<ImageRowsById> {
    const rows = cached ?? (await this.records.getMany(ids));
    const unread = ids.filter((id) => !rows.has(id));
    if (unread.length > 0) {
      const loaded = await this.images.findByIds(unread);
      for (const row of loaded) rows.set(row.id, row);
      await this.records.setMany(loaded);
    }
    const found: ImageRow[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (row) found.push(row);
      else missing.push(id);
    }
    return { found, missing };
  }
}
