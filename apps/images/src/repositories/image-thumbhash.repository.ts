import type { DataSource } from 'typeorm';

/** An image whose ThumbHash is missing: enough to find its file. */
export interface ImageWithoutThumbhash {
  id: string;
  ext: string;
}

/** The `thumbhash` column of `<prefix>images.images`, for the backfill. */
export class ImageThumbhashRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `limit` images without a ThumbHash whose id is after `afterId`, by id (a keyset page on the primary key). */
  async pageWithout(afterId: string, limit: number): Promise<ImageWithoutThumbhash[]> {
    return this.dataSource.query<ImageWithoutThumbhash[]>(
      'SELECT id, ext FROM images WHERE id > ? AND thumbhash IS NULL ORDER BY id LIMIT ?',
      [afterId, limit],
    );
  }

  /** Stores an image's ThumbHash; false when the image is gone. */
  async set(id: string, thumbhash: string): Promise<boolean> {
    const result = await this.dataSource.query<{ affectedRows: number }>(
      'UPDATE images SET thumbhash = ? WHERE id = ?',
      [thumbhash, id],
    );
    return result.affectedRows > 0;
  }
}
