import { readWith, type LagTolerance } from '@pawlink/service-kit';
import type { DataSource, Repository } from 'typeorm';
import { CategoryEntity, type CategoryRow } from '../db/entities/category.entity.js';

export interface CategoryWithContent extends CategoryRow {
  hasContent: boolean;
}

export interface TypeStats {
  mimeType: string;
  count: number;
  totalSize: number;
}

/** Categories in `<prefix>images.categories`. */
export class CategoryRepository {
  private readonly repo: Repository<CategoryRow>;

  constructor(private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(CategoryEntity);
  }

  async find(db: string): Promise<CategoryRow | null> {
    return this.repo.findOneBy({ db });
  }

  async count(): Promise<number> {
    return this.repo.count();
  }

  /**
   * Every category with whether it holds at least one image (an index probe per category); on the
   * reader when `lagTolerant` (the public list), else on the writer (admin).
   */
  async listWithContent(reads: LagTolerance = {}): Promise<CategoryWithContent[]> {
    return readWith(this.dataSource, reads, async (manager) => {
      const rows = await manager.query<Array<{ db: string; has_content: string | number }>>(
        'SELECT c.db, EXISTS (SELECT 1 FROM images i WHERE i.category = c.db) AS has_content FROM categories c',
      );
      const withContent = new Map(rows.map((r) => [r.db, Number(r.has_content) === 1]));
      const categories = await manager.getRepository(CategoryEntity).find({ order: { db: 'ASC' } });
      return categories.map((c) => ({ ...c, hasContent: withContent.get(c.db) ?? false }));
    });
  }

  async hasContent(db: string): Promise<boolean> {
    const rows = await this.dataSource.query<Array<{ found: number }>>(
      'SELECT 1 AS found FROM images WHERE category = ? LIMIT 1',
      [db],
    );
    return rows.length > 0;
  }

  /** Count and bytes per MIME type, from the covering (category, mime_type, size) index; see listWithContent for `reads`. */
  async typeStats(db: string, reads: LagTolerance = {}): Promise<TypeStats[]> {
    const rows = await readWith(this.dataSource, reads, (manager) =>
      manager.query<Array<{ mime_type: string; n: string | number; total: string | number | null }>>(
        'SELECT mime_type, COUNT(*) AS n, SUM(size) AS total FROM images WHERE category = ? GROUP BY mime_type ORDER BY mime_type',
        [db],
      ),
    );
    return rows.map((r) => ({ mimeType: r.mime_type, count: Number(r.n), totalSize: Number(r.total ?? 0) }));
  }

  /** Inserts the category (SFW only when `sfw`); false when the key is taken. */
  async create(db: string, name: string, sfw = false, now = new Date()): Promise<boolean> {
    // Plain SQL: on MariaDB typeorm's insert result carries RETURNING rows, not affectedRows.
    const result = await this.dataSource.query<{ affectedRows?: number }>(
      'INSERT IGNORE INTO categories (db, name, sfw, disabled, disabled_comment, created_at) VALUES (?, ?, ?, 0, NULL, ?)',
      [db, name, sfw ? 1 : 0, now],
    );
    return (result.affectedRows ?? 0) > 0;
  }

  /** False when there is no such category. */
  async setSfw(db: string, sfw: boolean): Promise<boolean> {
    const result = await this.repo.update({ db }, { sfw });
    return (result.affected ?? 0) > 0 || (await this.repo.existsBy({ db }));
  }

  /** False when there is no such category. */
  async setDisabled(db: string, disabled: boolean, comment: string | null): Promise<boolean> {
    const result = await this.repo.update({ db }, { disabled, disabledComment: disabled ? comment : null });
    // Drivers differ on whether an unchanged row counts as affected.
    return (result.affected ?? 0) > 0 || (await this.repo.existsBy({ db }));
  }
}
