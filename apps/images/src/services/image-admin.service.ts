import type { ImageRow } from '../db/entities/image.entity.js';
import type { CategoryRepository } from '../repositories/category.repository.js';
import type { ImageFileRepository } from '../repositories/image-file.repository.js';
import type { ImageRepository } from '../repositories/image.repository.js';
import type { RecordCacheRepository } from '../repositories/record-cache.repository.js';
import type { SizeIndexRepository } from '../repositories/size-index.repository.js';
import type { SizeIndexService } from './size-index.service.js';

export interface ImageAdminServiceDeps {
  categories: Pick<CategoryRepository, 'find' | 'listWithContent'>;
  images: Pick<ImageRepository, 'findById' | 'remove'>;
  records: Pick<RecordCacheRepository, 'remove'>;
  index: Pick<SizeIndexRepository, 'remove'>;
  indexing: Pick<SizeIndexService, 'rebuild'>;
  files: Pick<ImageFileRepository, 'remove'>;
}

/** What operators do to stored images besides importing them: remove one, rebuild indexes. */
export class ImageAdminService {
  constructor(private readonly deps: ImageAdminServiceDeps) {}

  /** Removes an image everywhere it is stored; returns what it was, or null when there is no such image. */
  async remove(id: string): Promise<ImageRow | null> {
    const row = await this.deps.images.findById(id);
    if (!row) return null;
    // Out of the random index first, so no request picks an image whose row is gone.
    await this.deps.index.remove(row.category, id);
    await this.deps.records.remove(id);
    await this.deps.images.remove(id);
    await this.deps.files.remove(id, row.ext);
    return row;
  }

  /**
   * Rebuilds the size index of `db`, or of every category, from MySQL, reporting each category
   * as it is done. False when `db` names no category (nothing is rebuilt).
   */
  async reindex(db: string | undefined, reindexed: (db: string, images: number) => void): Promise<boolean> {
    if (db !== undefined && !(await this.deps.categories.find(db))) return false;
    const targets = db === undefined ? (await this.deps.categories.listWithContent()).map((c) => c.db) : [db];
    for (const target of targets) reindexed(target, await this.deps.indexing.rebuild(target));
    return true;
  }
}
