import type { DataSource } from 'typeorm';

/** An image that has no short link yet: what its public URL is made of. */
export interface MissingShortUrl {
  id: string;
  ext: string;
}

/**
 * The `short_url` column of `<prefix>images.images`. Images without one are found through
 * `idx_images_short_url_missing` (short_url(1), id): a page costs the rows it returns, however many
 * images already have their link.
 */
export class ImageShortUrlRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `limit` images without a short link whose id comes after `afterId`, by id. */
  async missing(afterId: string, limit: number): Promise<MissingShortUrl[]> {
    return this.dataSource.query<MissingShortUrl[]>(
      'SELECT id, ext FROM images WHERE short_url IS NULL AND id > ? ORDER BY id LIMIT ?',
      [afterId, limit],
    );
  }

  async countMissing(): Promise<number> {
    const rows = await this.dataSource.query<Array<{ n: string | number }>>(
      'SELECT COUNT(*) AS n FROM images WHERE short_url IS NULL',
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Stores each link unless the image has one already (a sidecar's, or another filler's) or is gone;
   * returns the ids that took the link.
   */
  async fill(links: ReadonlyMap<string, string>): Promise<string[]> {
    const stored: string[] = [];
    for (const [id, url] of links) {
      const result = await this.dataSource.query<{ affectedRows?: number }>(
        'UPDATE images SET short_url = ? WHERE id = ? AND short_url IS NULL',
        [url, id],
      );
      if ((result.affectedRows ?? 0) > 0) stored.push(id);
    }
    return stored;
  }
}
