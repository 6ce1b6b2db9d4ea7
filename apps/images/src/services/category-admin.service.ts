import type { CategoryRow } from '../db/entities/category.entity.js';
import type { CategoryRepository } from '../repositories/category.repository.js';
import type { ImageRepository } from '../repositories/image.repository.js';

export interface CategoryAdminServiceDeps {
  categories: Pick<CategoryRepository, 'create' | 'setDisabled' | 'setSfw' | 'listWithContent'>;
  images: Pick<ImageRepository, 'countsByCategory'>;
}

/** A category as operators see it: its row, whether it has content and how many images. */
export interface CategoryOverview extends CategoryRow {
  hasContent: boolean;
  images: number;
}

/** Operators' category changes (`bin/admin category …`); a new category has no images, so it is listed as disabled. */
export class CategoryAdminService {
  constructor(private readonly deps: CategoryAdminServiceDeps) {}

  /** Not SFW unless `sfw`. False when the key is taken. */
  add(db: string, name: string, sfw = false): Promise<boolean> {
    return this.deps.categories.create(db, name, sfw);
  }

  /** Marks the category SFW or not; keys with `sfw_only` may use only SFW ones. False when there is no such category. */
  setSfw(db: string, sfw: boolean): Promise<boolean> {
    return this.deps.categories.setSfw(db, sfw);
  }

  /** Listed as disabled with `comment`; its random endpoint answers 1030. False when there is no such category. */
  disable(db: string, comment: string): Promise<boolean> {
    return this.deps.categories.setDisabled(db, true, comment);
  }

  /** False when there is no such category. */
  enable(db: string): Promise<boolean> {
    return this.deps.categories.setDisabled(db, false, null);
  }

  async list(): Promise<CategoryOverview[]> {
    const [rows, counts] = await Promise.all([
      this.deps.categories.listWithContent(),
      this.deps.images.countsByCategory(),
    ]);
    return rows.map((row) => ({ ...row, images: counts.get(row.db) ?? 0 }));
  }
}
