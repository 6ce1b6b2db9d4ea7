import { createHash } from 'node:crypto';
import { QueryFailedError, type DataSource, type Repository } from 'typeorm';
import { ShortUrlEntity, type ShortUrl } from './short-url.entity.js';

export type NewShortUrl = Omit<ShortUrl, 'pos' | 'urlHash' | 'modifiedAt' | 'urlChangedAt'>;
/** `urlChangedAt` goes with a url change, in the same UPDATE as `modifiedAt`. */
export type ShortUrlChanges = Partial<Pick<ShortUrl, 'url' | 'credit'>> & { modifiedAt: Date; urlChangedAt?: Date };

/** Which unique index refused a write. */
export type Conflict = 'code' | 'url';

export type WriteOutcome<T> = { ok: true; value: T } | { ok: false; conflict: Conflict };

export const urlHash = (url: string): Buffer => createHash('sha256').update(url, 'utf8').digest();

/** The unique index a duplicate-key error names (MariaDB: `uq_x`, MySQL 8: `table.uq_x`). */
function duplicateOf(error: unknown): Conflict | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const driver = error.driverError as { errno?: number; sqlMessage?: string } | undefined;
  if (driver?.errno !== 1062) return undefined;
  const message = driver.sqlMessage ?? error.message;
  if (message.includes('uq_short_urls_url_hash')) return 'url';
  if (message.includes('uq_short_urls_code')) return 'code';
  return undefined;
}

/**
 * Storage of short URLs. Uniqueness of codes and URLs is left to the unique indexes: a write
 * that loses a race comes back as a conflict instead of an exception.
 */
export class ShortUrlRepository {
  private readonly repo: Repository<ShortUrl>;

  constructor(dataSource: DataSource) {
    this.repo = dataSource.getRepository(ShortUrlEntity);
  }

  findByCode(code: string): Promise<ShortUrl | null> {
    return this.repo.findOneBy({ code });
  }

  findByUrl(url: string): Promise<ShortUrl | null> {
    return this.repo.findOneBy({ urlHash: urlHash(url) });
  }

  async insert(entry: NewShortUrl): Promise<WriteOutcome<ShortUrl>> {
    const row: Omit<ShortUrl, 'pos'> = { ...entry, urlHash: urlHash(entry.url), modifiedAt: null, urlChangedAt: null };
    try {
      const result = await this.repo.insert(row);
      const pos = Number((result.identifiers[0] as { pos: number | string }).pos);
      return { ok: true, value: { ...row, pos } };
    } catch (error) {
      const conflict = duplicateOf(error);
      if (conflict) return { ok: false, conflict };
      throw error;
    }
  }

  /** Applies changes to the entry at `pos`; the url's hash follows the url. `value` is false when no entry has that pos any more. */
  async update(pos: number, changes: ShortUrlChanges): Promise<WriteOutcome<boolean>> {
    const values: Partial<ShortUrl> = { ...changes };
    if (changes.url !== undefined) values.urlHash = urlHash(changes.url);
    try {
      const result = await this.repo.update({ pos }, values);
      return { ok: true, value: (result.affected ?? 0) > 0 };
    } catch (error) {
      const conflict = duplicateOf(error);
      if (conflict) return { ok: false, conflict };
      throw error;
    }
  }

  /** False when the entry was already gone. */
  async delete(pos: number): Promise<boolean> {
    const result = await this.repo.delete({ pos });
    return (result.affected ?? 0) > 0;
  }
}
