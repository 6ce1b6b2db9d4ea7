import { createHash } from 'node:crypto';
import { lagTolerantLookup, retryWrite } from '@pawlink/service-kit';
import { QueryFailedError, type DataSource, type Repository } from 'typeorm';
import { ShortUrlEntity, type ShortUrl } from '../db/entities/short-url.entity.js';
import type { OwnerPosition } from '../domain/links-cursor.rules.js';
import { carriesEveryTag, deleteTags, writeTags } from './short-url-tags.repository.js';

export type NewShortUrl = Omit<
  ShortUrl,
  | 'pos'
  | 'sharedUrlHash'
  | 'modifiedAt'
  | 'urlChangedAt'
  | 'maxVisitsUsed'
  | 'maxVisitsReachedAt'
  | 'ownerKeyId'
  | 'passwordHash'
  | 'rules'
> & {
  /** scrypt of the password; none when absent. */
  passwordHash?: string | null;
  /** The redirect rules as JSON; none when absent. */
  rules?: string | null;
  /** The creating API key; none (null) when absent. */
  ownerKeyId?: number | null;
  /** Written with the row, in one transaction; none when absent or empty. */
  tags?: readonly string[];
};

/** Where a page of one owner's entries starts: after this entry in (createdAt desc, pos desc) order. */
export type { OwnerPosition };

export interface OwnerPageQuery {
  ownerKeyId: number;
  /** Rows at most. */
  limit: number;
  /** Only entries after this one; from the newest when absent. */
  after?: OwnerPosition;
  /** Only entries whose code, url or credit contains this, ignoring case. */
  contains?: string;
  /** Only entries carrying every one of these tags. */
  tags?: readonly string[];
}

/** The LIKE escape character of `containsPattern` (not the backslash, whose meaning depends on NO_BACKSLASH_ESCAPES). */
const LIKE_ESCAPE = '!';

/** A LIKE pattern matching `text` anywhere, its wildcards (and the escape character) taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[!%_]/g, (c) => `${LIKE_ESCAPE}${c}`)}%`;

/**
 * `column` contains :pattern ignoring case: both sides lower-cased by the server, compared bytewise
 * (codes and urls are ascii_bin, which LIKE would compare case-sensitively; credits are
 * utf8mb4_unicode_ci, which would also ignore accents).
 */
const containsIgnoringCase = (column: string): string =>
  `LOWER(CONVERT(${column} USING utf8mb4)) LIKE LOWER(CONVERT(:pattern USING utf8mb4)) COLLATE utf8mb4_bin ESCAPE '${LIKE_ESCAPE}'`;
/**
 * `urlChangedAt` goes with a url change, in the same UPDATE as `modifiedAt`; `maxVisitsUsed` and
 * `maxVisitsReachedAt` with a change of `maxVisits`.
 */
export type ShortUrlChanges = Partial<
  Pick<
    ShortUrl,
    'url' | 'credit' | 'expiresAt' | 'maxVisits' | 'maxVisitsUsed' | 'maxVisitsReachedAt' | 'passwordHash' | 'rules'
  >
> & { modifiedAt: Date; urlChangedAt?: Date };

/**
 * Only entries nobody can change, that never expire and carry nothing of their creator's (tags)
 * are shared between creators.
 */
export const isShared = (
  entry: Pick<ShortUrl, 'managementCodeHash' | 'expiresAt' | 'maxVisits'> & {
    tags?: readonly string[];
    passwordHash?: string | null;
    rules?: string | null;
  },
): boolean =>
  entry.managementCodeHash === null &&
  entry.expiresAt === null &&
  entry.maxVisits === null &&
  (entry.passwordHash ?? null) === null &&
  (entry.rules ?? null) === null &&
  (entry.tags === undefined || entry.tags.length === 0);

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
  if (message.includes('uq_short_urls_shared_url_hash')) return 'url';
  if (message.includes('uq_short_urls_code')) return 'code';
  return undefined;
}

/**
 * A new row, written by hand: typeorm's insert builder spent more CPU composing this one statement
 * (and, on MariaDB, asking for the defaults back with RETURNING) than the rest of a create's
 * database work. The columns left out take their defaults (NULL, max_visits_used 0).
 */
const INSERT_SHORT_URL = `INSERT INTO short_urls (code, url, shared_url_hash, credit, management_code_hash, created_at, expires_at, max_visits, owner_key_id, password_hash, rules)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Whether `stored` is the row an earlier try of this insert wrote: every column the create chose,
 * down to its millisecond `createdAt` (and its management code's hash, random for editable entries).
 */
const isSameRow = (stored: ShortUrl, row: Omit<ShortUrl, 'pos'>): boolean =>
  stored.url === row.url &&
  stored.credit === row.credit &&
  stored.managementCodeHash === row.managementCodeHash &&
  stored.createdAt.getTime() === row.createdAt.getTime() &&
  (stored.expiresAt?.getTime() ?? null) === (row.expiresAt?.getTime() ?? null) &&
  stored.maxVisits === row.maxVisits &&
  stored.ownerKeyId === row.ownerKeyId &&
  stored.passwordHash === row.passwordHash &&
  stored.rules === row.rules;

/**
 * Storage of short URLs. Uniqueness of codes, and of URLs among entries nobody can change, is left
 * to the unique indexes: a write that loses a race comes back as a conflict instead of an exception.
 */
export class ShortUrlRepository {
  private readonly repo: Repository<ShortUrl>;

  constructor(private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(ShortUrlEntity);
  }

  /** On the writer: what redirect-cache and preview fills, edits, deletes and creates must see. */
  findByCode(code: string): Promise<ShortUrl | null> {
    return this.repo.findOneBy({ code });
  }

  /**
   * On the reader when there is one, for answers that are not cached and may be a moment behind
   * (`/:code.json`, `/:code/stats`); a code the reader lacks is asked of the writer.
   */
  findByCodeLagTolerant(code: string): Promise<ShortUrl | null> {
    return lagTolerantLookup(this.dataSource, (manager) => manager.getRepository(ShortUrlEntity).findOneBy({ code }));
  }

  /** The entry nobody can change that points at `url`, the only kind ever handed to another creator. */
  findSharedByUrl(url: string): Promise<ShortUrl | null> {
    return this.repo.findOneBy({ sharedUrlHash: urlHash(url) });
  }

  /** A shared entry (`isShared`): a second insert of its url conflicts on 'url'. */
  async insert(entry: NewShortUrl): Promise<WriteOutcome<ShortUrl>> {
    const sharedUrlHash = isShared(entry) ? urlHash(entry.url) : null;
    const { tags, ...fields } = entry;
    const row: Omit<ShortUrl, 'pos'> = {
      ...fields,
      ownerKeyId: entry.ownerKeyId ?? null,
      passwordHash: entry.passwordHash ?? null,
      rules: entry.rules ?? null,
      sharedUrlHash,
      modifiedAt: null,
      urlChangedAt: null,
      maxVisitsUsed: 0,
      maxVisitsReachedAt: null,
    };
    const values = [
      row.code,
      row.url,
      row.sharedUrlHash,
      row.credit,
      row.managementCodeHash,
      row.createdAt,
      row.expiresAt,
      row.maxVisits,
      row.ownerKeyId,
      row.passwordHash,
      row.rules,
    ];
    // A try whose answer was lost may have committed: its row then refuses the retry, and is ours.
    return retryWrite(async (attempt) => {
      try {
        // A link without tags stays one statement; with tags, the row and its tags commit together.
        const pos =
          tags === undefined || tags.length === 0
            ? Number((await this.repo.query<{ insertId: number | string }>(INSERT_SHORT_URL, values)).insertId)
            : await this.repo.manager.transaction(async (manager) => {
                const result: { insertId: number | string } = await manager.query(INSERT_SHORT_URL, values);
                await writeTags(manager, Number(result.insertId), row.ownerKeyId, tags);
                return Number(result.insertId);
              });
        return { ok: true, value: { ...row, pos } };
      } catch (error) {
        const conflict = duplicateOf(error);
        if (!conflict) throw error;
        const earlier = attempt > 1 ? await this.findByCode(row.code) : null;
        if (earlier && isSameRow(earlier, row)) return { ok: true, value: earlier };
        return { ok: false, conflict };
      }
    });
  }

  /**
   * One page of the entries `ownerKeyId` created, newest first (createdAt desc, then pos desc), by
   * keyset on the index (owner_key_id, created_at, pos): a page starts right after `after`, so
   * entries created meanwhile never shift a later page (no OFFSET).
   */
  listByOwner(query: OwnerPageQuery): Promise<ShortUrl[]> {
    const builder = this.repo.createQueryBuilder('s').where('s.owner_key_id = :owner', { owner: query.ownerKeyId });
    if (query.after)
      builder.andWhere('(s.created_at < :at OR (s.created_at = :at AND s.pos < :pos))', {
        at: query.after.createdAt,
        pos: query.after.pos,
      });
    if (query.contains !== undefined) {
      builder.andWhere(`(${['s.code', 's.url', 's.credit'].map(containsIgnoringCase).join(' OR ')})`, {
        pattern: containsPattern(query.contains),
      });
    }
    if (query.tags !== undefined && query.tags.length > 0)
      builder.andWhere(
        carriesEveryTag('s', query.tags.length),
        Object.fromEntries(query.tags.map((tag, i) => [`tag${i}`, tag])),
      );
    return builder.orderBy('s.created_at', 'DESC').addOrderBy('s.pos', 'DESC').limit(query.limit).getMany();
  }

  /**
   * Applies changes to the entry at `pos`; false when no entry has that pos any more. Only editable
   * entries are changed, and they are never shared, so no change can conflict with another entry.
   */
  async update(
    pos: number,
    changes: ShortUrlChanges,
    tags?: { ownerKeyId: number | null; tags: readonly string[] },
  ): Promise<boolean> {
    if (tags === undefined) {
      const result = await this.repo.update({ pos }, changes);
      return (result.affected ?? 0) > 0;
    }
    return this.repo.manager.transaction(async (manager) => {
      const result = await manager.update(ShortUrlEntity, { pos }, changes);
      if ((result.affected ?? 0) === 0) return false;
      await writeTags(manager, pos, tags.ownerKeyId, tags.tags);
      return true;
    });
  }

  /**
   * Admits one counted visit of a `maxVisits` entry, atomically: true when it was still below its
   * limit (and not past `expiresAt`) and is now one visit further, false otherwise. The row lock of
   * the UPDATE orders concurrent visits, so exactly `maxVisits` of them are ever admitted.
   */
  async admitVisit(code: string, now: Date): Promise<boolean> {
    // `max_visits_reached_at` first: it reads the count before this UPDATE raises it, in MySQL and MariaDB alike.
    const result: { affectedRows?: number } = await this.repo.query(
      `UPDATE short_urls
          SET max_visits_reached_at = IF(max_visits_used + 1 >= max_visits, ?, NULL), max_visits_used = max_visits_used + 1
        WHERE code = ? AND max_visits IS NOT NULL AND max_visits_used < max_visits AND (expires_at IS NULL OR expires_at > ?)`,
      [now, code, now],
    );
    return (result.affectedRows ?? 0) > 0;
  }

  /** False when the entry was already gone. Its counted visits go with it. */
  async delete(pos: number): Promise<boolean> {
    return this.repo.manager.transaction(async (manager) => {
      const result = await manager.delete(ShortUrlEntity, { pos });
      await manager.query('DELETE FROM short_url_visits WHERE short_url_pos = ?', [pos]);
      await manager.query('DELETE FROM short_url_visit_breakdown WHERE short_url_pos = ?', [pos]);
      await deleteTags(manager, pos);
      await manager.query('DELETE FROM short_url_imports WHERE short_url_pos = ?', [pos]);
      return (result.affected ?? 0) > 0;
    });
  }
}
