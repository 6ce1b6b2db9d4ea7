import type { DataSource, Repository } from 'typeorm';
import { In } from 'typeorm';
import { ImageEntity, type ImageRow } from '../db/image.entity.js';

export interface IdAndSize {
  id: string;
  size: number;
}

const DUPLICATE_ENTRY = 'ER_DUP_ENTRY';

/** Image records in `<prefix>images.images`; every lookup goes by primary key or an index. */
export class ImageRepository {
  private readonly repo: Repository<ImageRow>;

  constructor(private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(ImageEntity);
  }

  async findById(id: string): Promise<ImageRow | null> {
    return this.repo.findOneBy({ id });
  }

  /** The rows for `ids`, in the order of `ids`; ids without a row are left out. */
  async findByIds(ids: readonly string[]): Promise<ImageRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.repo.findBy({ id: In([...ids]) });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
  }

  /** Inserts a record; false when an image with that MD5 already exists. */
  async insert(row: ImageRow): Promise<boolean> {
    try {
      await this.repo.insert(row);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === DUPLICATE_ENTRY || (error as { driverError?: { code?: string } }).driverError?.code === DUPLICATE_ENTRY) return false;
      throw error;
    }
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.repo.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Every (id, size) of a category in pages of `batchSize`, by keyset on the (category, id)
   * index, so a million-row category is read without a huge result set or OFFSET scans.
   */
  async *idsAndSizes(category: string, batchSize = 5000): AsyncGenerator<IdAndSize[]> {
    let after = '';
    for (;;) {
      const rows = await this.dataSource.query<Array<{ id: string; size: string | number }>>(
        'SELECT id, size FROM images WHERE category = ? AND id > ? ORDER BY id LIMIT ?',
        [category, after, batchSize],
      );
      if (rows.length === 0) return;
      yield rows.map((r) => ({ id: r.id, size: Number(r.size) }));
      after = rows[rows.length - 1]!.id;
      if (rows.length < batchSize) return;
    }
  }
}
