import type { DataSource, EntityManager } from 'typeorm';

/** What runs a statement: the data source, or the manager of a transaction under way. */
type Queryable = Pick<EntityManager, 'query'>;

/** A tag and how many of one key's links carry it. */
export interface TagCount {
  tag: string;
  links: number;
}

/**
 * Replaces the tags of the link at `pos` (inside the caller's transaction, so a link and its tags
 * are written together). `ownerKeyId` is the link's owner, repeated in each row for `GET /tags`.
 */
export async function writeTags(
  db: Queryable,
  pos: number,
  ownerKeyId: number | null,
  tags: readonly string[],
): Promise<void> {
  await db.query('DELETE FROM short_url_tags WHERE short_url_pos = ?', [pos]);
  if (tags.length === 0) return;
  await db.query(
    `INSERT INTO short_url_tags (short_url_pos, tag, owner_key_id) VALUES ${tags.map(() => '(?, ?, ?)').join(', ')}`,
    tags.flatMap((tag) => [pos, tag, ownerKeyId]),
  );
}

/** Deletes the tags of the link at `pos` (with the link, in its transaction). */
export async function deleteTags(db: Queryable, pos: number): Promise<void> {
  await db.query('DELETE FROM short_url_tags WHERE short_url_pos = ?', [pos]);
}

/**
 * SQL that holds for a link `s` carrying every one of `count` tags: one primary-key lookup per tag,
 * so a filter costs the same whatever else the key has tagged.
 */
export const carriesEveryTag = (alias: string, count: number): string =>
  Array.from(
    { length: count },
    (_, i) =>
      `EXISTS (SELECT 1 FROM short_url_tags t${i} WHERE t${i}.short_url_pos = ${alias}.pos AND t${i}.tag = :tag${i})`,
  ).join(' AND ');

/** Reads of the tags table. */
export class ShortUrlTagsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The tags of the link at `pos`, sorted. */
  async tagsOf(pos: number): Promise<string[]> {
    const rows: Array<{ tag: string }> = await this.dataSource.query(
      'SELECT tag FROM short_url_tags WHERE short_url_pos = ? ORDER BY tag',
      [pos],
    );
    return rows.map((row) => row.tag);
  }

  /** The tags of each link of `positions` (one query for a page), sorted; links without tags are absent. */
  async tagsOfEach(positions: readonly number[]): Promise<Map<number, string[]>> {
    const tags = new Map<number, string[]>();
    if (positions.length === 0) return tags;
    const rows: Array<{ pos: number; tag: string }> = await this.dataSource.query(
      `SELECT short_url_pos AS pos, tag FROM short_url_tags WHERE short_url_pos IN (${positions.map(() => '?').join(', ')}) ORDER BY short_url_pos, tag`,
      [...positions],
    );
    for (const row of rows) {
      const pos = Number(row.pos);
      const list = tags.get(pos);
      if (list) list.push(row.tag);
      else tags.set(pos, [row.tag]);
    }
    return tags;
  }

  /** Every tag on a link of `ownerKeyId`, by name, with its links (from the index (owner_key_id, tag) alone). */
  async countsOf(ownerKeyId: number): Promise<TagCount[]> {
    const rows: Array<{ tag: string; links: number | string }> = await this.dataSource.query(
      'SELECT tag, COUNT(*) AS links FROM short_url_tags WHERE owner_key_id = ? GROUP BY tag ORDER BY tag',
      [ownerKeyId],
    );
    return rows.map((row) => ({ tag: row.tag, links: Number(row.links) }));
  }
}
