import type { Category } from '@pawlink/contracts';
import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import type { CategoryRepository } from '../repositories/category.repository.js';

export interface ListCategoriesServiceDeps {
  categories: Pick<CategoryRepository, 'listWithContent'>;
}

/** `GET /categories`: every category, enabled or disabled. */
export class ListCategoriesService {
  constructor(private readonly deps: ListCategoriesServiceDeps) {}

  /** Enabled categories, and disabled ones with their comment (one without images: it never had content). */
  async listCategories(): Promise<{ enabled: Category[]; disabled: Category[] }> {
    const enabled: Category[] = [];
    const disabled: Category[] = [];
    for (const row of await this.deps.categories.listWithContent({ lagTolerant: true })) {
      const category = { name: row.name, db: row.db, sfw: row.sfw };
      if (row.disabled) disabled.push({ ...category, _comment: row.disabledComment ?? 'Category is disabled.' });
      else if (!row.hasContent) disabled.push({ ...category, _comment: NEVER_HAD_CONTENT_COMMENT });
      else enabled.push(category);
    }
    return { enabled, disabled };
  }
}
