import type { DataSource } from 'typeorm';

/** One of a key's entries as the export writes it, with its tags and visits as MySQL holds them. */
export interface ExportedEntry {
  pos: number;
  code: string;
  url: string;
  credit: string;
  createdAt: Date;
  expiresAt: Date | null;
  maxVisits: number | null;
  /** Sorted. */
  tags: string[];
  /** Visits counted before an import plus those moved to MySQL. */
  visits: number;
}

/** Where the next page of an export starts: after this entry in (createdAt, pos) order. */
export interface ExportPosition {
  createdAt: Date;
  pos: number;
}

interface ExportRow {
  pos: number | string;
  code: string;
  url: string;
  credit: string;
  created_at: Date;
  expires_at: Date | null;
  max_visits: number | null;
  tags: string | null;
  imported: number | string | null;
  counted: number | string | null;
}

/**
 * Reads of `GET /links/export`: one key's entries oldest first, a page at a time by keyset on the
 * index (owner_key_id, created_at, pos), so an export of any size holds one page in memory and
 * entries created meanwhile never shift a page.
 */
export class LinkExportRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(owner: number, after: ExportPosition | null, limit: number): Promise<ExportedEntry[]> {
    const rows: ExportRow[] = await this.dataSource.query(
      `SELECT s.pos, s.code, s.url, s.credit, s.created_at, s.expires_at, s.max_visits,
              (SELECT GROUP_CONCAT(t.tag ORDER BY t.tag SEPARATOR ',') FROM short_url_tags t WHERE t.short_url_pos = s.pos) AS tags,
              (SELECT i.visits FROM short_url_imports i WHERE i.short_url_pos = s.pos) AS imported,
              (SELECT SUM(v.visits) FROM short_url_visits v WHERE v.short_url_pos = s.pos) AS counted
         FROM short_urls s
        WHERE s.owner_key_id = ? ${after === null ? '' : 'AND (s.created_at > ? OR (s.created_at = ? AND s.pos > ?))'}
        ORDER BY s.created_at, s.pos
        LIMIT ${Number(limit)}`,
      after === null ? [owner] : [owner, after.createdAt, after.createdAt, after.pos],
    );
    return rows.map((r) => ({
      pos: Number(r.pos),
      code: r.code,
      url: r.url,
      credit: r.credit,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      maxVisits: r.max_visits === null ? null : Number(r.max_visits),
      tags: r.tags === null || r.tags === '' ? [] : r.tags.split(','),
      visits: Number(r.imported ?? 0) + Number(r.counted ?? 0),
    }));
  }

  /** UTC day → visits of each entry of `positions` (those with none are absent), days in order. */
  async daysOf(positions: readonly number[]): Promise<Map<number, Array<[string, number]>>> {
    const days = new Map<number, Array<[string, number]>>();
    if (positions.length === 0) return days;
    const rows: Array<{ pos: number | string; day: string; visits: number | string }> = await this.dataSource.query(
      `SELECT short_url_pos AS pos, DATE_FORMAT(day, '%Y-%m-%d') AS day, visits FROM short_url_visits
        WHERE short_url_pos IN (${positions.map(() => '?').join(',')}) ORDER BY short_url_pos, day`,
      [...positions],
    );
    for (const row of rows) {
      const pos = Number(row.pos);
      let list = days.get(pos);
      if (list === undefined) days.set(pos, (list = []));
      list.push([row.day, Number(row.visits)]);
    }
    return days;
  }
}
