import { QueryFailedError, type DataSource } from 'typeorm';

/** One entry to write, checked already: a free, well-formed code and a normalised target. */
export interface ImportedEntry {
  code: string;
  url: string;
  credit: string;
  createdAt: Date;
  expiresAt: Date | null;
  maxVisits: number | null;
  /** Checked by `parseTags` already (lower case, sorted, each once). */
  tags: readonly string[];
  /** Visits counted at the source, before the import. */
  visits: number;
  /** The identity the entry had at its source (unique per owner and source). */
  origin: string;
}

/** What holds a code already. */
export interface CodeHolder {
  url: string;
  ownerKeyId: number | null;
}

const placeholders = (count: number, width: number): string =>
  Array.from({ length: count }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');

/** A write refused by a unique index (a code taken, or an origin imported, since it was looked up). */
function isDuplicate(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { errno?: number } | undefined)?.errno === 1062;
}

/**
 * Writes imported entries (`short_urls` with `short_url_imports` and `short_url_tags`) in batches, and answers the
 * look-ups an import makes before it writes. Imported entries are never shared between creators
 * (`shared_url_hash` NULL: a source may hold one url under many codes) and nobody can change them
 * with a management code (none exists); visits counted at the source count against `maxVisits`.
 */
export class LinkImportRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Which of `origins` `owner` has imported from `source` already. */
  async importedOrigins(owner: number, source: string, origins: readonly string[]): Promise<Set<string>> {
    if (origins.length === 0) return new Set();
    const rows: Array<{ origin: string }> = await this.dataSource.query(
      `SELECT origin FROM short_url_imports WHERE owner_key_id = ? AND source = ? AND origin IN (${origins.map(() => '?').join(',')})`,
      [owner, source, ...origins],
    );
    return new Set(rows.map((r) => r.origin));
  }

  /** The entries holding any of `codes` (compared exactly, as codes are). */
  async holdersOf(codes: readonly string[]): Promise<Map<string, CodeHolder>> {
    if (codes.length === 0) return new Map();
    const rows: Array<{ code: string; url: string; owner_key_id: number | null }> = await this.dataSource.query(
      `SELECT code, url, owner_key_id FROM short_urls WHERE code IN (${codes.map(() => '?').join(',')})`,
      [...codes],
    );
    return new Map(
      rows.map((r) => [r.code, { url: r.url, ownerKeyId: r.owner_key_id === null ? null : Number(r.owner_key_id) }]),
    );
  }

  /**
   * Writes `entries` for `owner` in one transaction: all or none. False when a unique index
   * refused one (a code taken or an origin imported since the look-up): nothing is written then.
   */
  async insertBatch(owner: number, source: string, entries: readonly ImportedEntry[], now: Date): Promise<boolean> {
    if (entries.length === 0) return true;
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.query(
          `INSERT INTO short_urls (code, url, shared_url_hash, credit, management_code_hash, created_at, expires_at, max_visits, max_visits_used, max_visits_reached_at, owner_key_id)
           VALUES ${placeholders(entries.length, 11)}`,
          entries.flatMap((e) => {
            const used = e.maxVisits === null ? 0 : Math.min(e.visits, e.maxVisits);
            const reached = e.maxVisits !== null && used >= e.maxVisits ? now : null;
            return [e.code, e.url, null, e.credit, null, e.createdAt, e.expiresAt, e.maxVisits, used, reached, owner];
          }),
        );
        const written: Array<{ pos: number | string; code: string }> = await manager.query(
          `SELECT pos, code FROM short_urls WHERE code IN (${entries.map(() => '?').join(',')})`,
          entries.map((e) => e.code),
        );
        const posOf = new Map(written.map((r) => [r.code, Number(r.pos)]));
        await manager.query(
          `INSERT INTO short_url_imports (short_url_pos, owner_key_id, source, origin, visits, imported_at) VALUES ${placeholders(entries.length, 6)}`,
          entries.flatMap((e) => [posOf.get(e.code), owner, source, e.origin, e.visits, now]),
        );
        const tagRows = entries.flatMap((e) => e.tags.map((tag) => [posOf.get(e.code), tag, owner]));
        if (tagRows.length > 0)
          await manager.query(
            `INSERT INTO short_url_tags (short_url_pos, tag, owner_key_id) VALUES ${placeholders(tagRows.length, 3)}`,
            tagRows.flat(),
          );
      });
      return true;
    } catch (error) {
      if (isDuplicate(error)) return false;
      throw error;
    }
  }
}
