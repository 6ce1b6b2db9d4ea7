import type { RedisClient } from '@pawlink/service-kit/redis';
import type { ImageRow } from '../db/entities/image.entity.js';

/** Positional to keep each entry small (~200 bytes with Redis overhead instead of ~400). */
type Stored = [
  category: string,
  ext: string,
  mimeType: string,
  size: number,
  width: number,
  height: number,
  artists: string[],
  sources: string[],
  reportUrl: string | null,
  shortUrl: string | null,
  createdAtMs: number,
  thumbhash?: string | null,
];

const encode = (row: ImageRow): string =>
  JSON.stringify([
    row.category,
    row.ext,
    row.mimeType,
    row.size,
    row.width,
    row.height,
    row.artists,
    row.sources,
    row.reportUrl,
    row.shortUrl,
    row.createdAt.getTime(),
    row.thumbhash ?? null,
  ] satisfies Stored);

/** A record as the cache stores it, back to its row; an entry cached before ThumbHashes has none. */
export function decodeRecord(id: string, value: string): ImageRow {
  const [category, ext, mimeType, size, width, height, artists, sources, reportUrl, shortUrl, createdAtMs, thumbhash] =
    JSON.parse(value) as Stored;
  return {
    id,
    category,
    ext,
    mimeType,
    size,
    width,
    height,
    artists,
    sources,
    reportUrl,
    shortUrl,
    createdAt: new Date(createdAtMs),
    thumbhash: thumbhash ?? null,
  };
}

/**
 * Every images key carries the hash tag `{images}`: on a Redis Cluster they share one slot, so a
 * script may read the size index and the records together.
 */
export const imagesKey = (redisPrefix: string, name: string): string => `${redisPrefix}{images}:${name}`;

/** The hash of every cached record. */
export const recordsKey = (redisPrefix: string): string => imagesKey(redisPrefix, 'records');

// Replaces a field only while it still holds what was read (an entry removed or rewritten meanwhile is left alone).
const REPLACE_UNCHANGED = `local n = 0
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
    n = n + 1
  end
end
return n`;

/**
 * Image rows as JSON in one Redis hash `<prefix>{images}:records` (field = id). Rows never change
 * after import but for their short link, filled later: entries are written (import, read-through,
 * a filled short link) and deleted (remove); a lost hash refills from MySQL on reads. It keeps MySQL — whose buffer pool a large category
 * outgrows — off the random-image path.
 */
export class RecordCacheRepository {
  static encode = encode;

  private readonly key: string;

  constructor(
    private readonly redis: RedisClient,
    redisPrefix: string,
  ) {
    this.key = recordsKey(redisPrefix);
  }

  async getMany(ids: readonly string[]): Promise<Map<string, ImageRow>> {
    const found = new Map<string, ImageRow>();
    if (ids.length === 0) return found;
    const values = await this.redis.hmget(this.key, ...ids);
    values.forEach((value, i) => {
      if (value === null) return;
      found.set(ids[i]!, decodeRecord(ids[i]!, value));
    });
    return found;
  }

  async setMany(rows: readonly ImageRow[]): Promise<void> {
    if (rows.length === 0) return;
    const args: string[] = [];
    for (const row of rows) args.push(row.id, encode(row));
    await this.redis.hset(this.key, ...args);
  }

  async remove(id: string): Promise<void> {
    await this.redis.hdel(this.key, id);
  }

  /** Puts filled short links into the entries that are cached; an image not cached is read from MySQL, link and all. */
  async setShortUrls(links: ReadonlyMap<string, string>): Promise<void> {
    if (links.size === 0) return;
    const ids = [...links.keys()];
    const values = await this.redis.hmget(this.key, ...ids);
    const args: string[] = [];
    values.forEach((value, i) => {
      if (value === null) return;
      const id = ids[i]!;
      args.push(id, value, encode({ ...decodeRecord(id, value), shortUrl: links.get(id)! }));
    });
    if (args.length > 0) await this.redis.eval(REPLACE_UNCHANGED, 1, this.key, ...args);
  }
}
