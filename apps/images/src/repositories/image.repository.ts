import { hasReader, lagTolerantRead, readWith, type LagTolerance } from '@pawlink/service-kit';
import type { DataSource, Repository } from 'typeorm';
import { ImageEntity, type ImageRow } from '../db/entities/image.entity.js';

/** What the size index is rebuilt from: an image's id, size and what its type classes follow from. */
export interface IdAndSize {
  id: string;
  size: number;
  ext: string;
  animated: boolean;
}

const DUPLICATE_ENTRY = 'ER_DUP_ENTRY';
const COLUMNS =
  'id, category, ext, mime_type, size, width, height, artists, sources, report_url, short_url, created_at, thumbhash';

interface RawImageRow {
  id: string;
  category: string;
  ext: string;
  mime_type: string;
  size: string | number;
  width: number;
  height: number;
  artists: string | string[];
  sources: string | string[];
  report_url: string | null;
  short_url: string | null;
  created_at: Date;
  thumbhash: string | null;
}

// MariaDB's JSON is LONGTEXT (a string here); MySQL 8 returns parsed JSON.
const jsonList = (value: string | string[]): string[] =>
  typeof value === 'string' ? (JSON.parse(value) as string[]) : value;

function fromRaw(r: RawImageRow): ImageRow {
  return {
    id: r.id,
    category: r.category,
    ext: r.ext,
    mimeType: r.mime_type,
    size: Number(r.size),
    width: Number(r.width),
    height: Number(r.height),
    artists: jsonList(r.artists),
    sources: jsonList(r.sources),
    reportUrl: r.report_url,
    shortUrl: r.short_url,
    createdAt: r.created_at,
    thumbhash: r.thumbhash,
  };
}

/** Image records in `<prefix>images.images`; every lookup goes by primary key or an index. */
export class ImageRepository {
  private readonly repo: Repository<ImageRow>;

  constructor(private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(ImageEntity);
  }

  async findById(id: string): Promise<ImageRow | null> {
    return this.repo.findOneBy({ id });
  }

  /**
   * The rows for `ids`, in the order of `ids`; ids without a row are left out. Read on the reader
   * when there is one (images never change after import); ids the reader lacks are asked of the
   * writer, since a missing id is dropped from the size index and the reader may lag an import.
   */
  async findByIds(ids: readonly string[]): Promise<ImageRow[]> {
    if (ids.length === 0) return [];
    // Hot path of every random request: plain SQL by primary key, no query builder.
    const sql = `SELECT ${COLUMNS} FROM images WHERE id IN (?)`;
    let raw: RawImageRow[];
    if (hasReader(this.dataSource)) {
      raw = await lagTolerantRead(this.dataSource, (manager) => manager.query<RawImageRow[]>(sql, [ids]));
      const found = new Set(raw.map((r) => r.id));
      const lacking = ids.filter((id) => !found.has(id));
      if (lacking.length > 0) raw.push(...(await this.dataSource.query<RawImageRow[]>(sql, [lacking])));
    } else {
      raw = await this.dataSource.query<RawImageRow[]>(sql, [ids]);
    }
    const byId = new Map(raw.map((r) => [r.id, fromRaw(r)]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
  }

  /** Inserts a record; false when an image with that MD5 already exists. */
  async insert(row: ImageRow): Promise<boolean> {
    try {
      // A copy: typeorm writes the defaults it reads back (`animated`) into the object it is given.
      await this.repo.insert({ ...row });
      return true;
    } catch (error) {
      if (
        (error as { code?: string }).code === DUPLICATE_ENTRY ||
        (error as { driverError?: { code?: string } }).driverError?.code === DUPLICATE_ENTRY
      )
        return false;
      throw error;
    }
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.repo.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Images per category, for every category that has any (one pass over the (category, id) index);
   * on the reader when `lagTolerant` (the public counts), else on the writer (the size index's check, admin).
   */
  async countsByCategory(reads: LagTolerance = {}): Promise<Map<string, number>> {
    const rows = await readWith(this.dataSource, reads, (manager) =>
      manager.query<Array<{ category: string; n: string | number }>>(
        'SELECT category, COUNT(*) AS n FROM images GROUP BY category',
      ),
    );
    return new Map(rows.map((r) => [r.category, Number(r.n)]));
  }

  /**
   * Every (id, size, ext, animated) of a category in pages of `batchSize`, by keyset on the (category, id)
   * index, so a million-row category is read without a huge result set or OFFSET scans.
   */
  async *idsAndSizes(category: string, batchSize = 5000): AsyncGenerator<IdAndSize[]> {
    let after = '';
    for (;;) {
      const rows = await this.dataSource.query<
        Array<{ id: string; size: string | number; ext: string; animated: string | number }>
      >('SELECT id, size, ext, animated FROM images WHERE category = ? AND id > ? ORDER BY id LIMIT ?', [
        category,
        after,
        batchSize,
      ]);
      if (rows.length === 0) return;
      yield rows.map((r) => ({ id: r.id, size: Number(r.size), ext: r.ext, animated: Number(r.animated) === 1 }));
      after = rows[rows.length - 1]!.id;
      if (rows.length < batchSize) return;
    }
  }
}
