import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { UnreadableValue, type LinkSource, type SourceItem } from './imported-link.js';
import { originOf } from './source-origin.js';
import { dateOf } from './source-values.js';

/** Rows per query (keyset on the keyword, YOURLS' primary key). */
const ROWS_PER_QUERY = 1000;

/** A connection string's table prefix: YOURLS' own default unless `?prefix=` says otherwise. */
const TABLE_PREFIX = /^[A-Za-z0-9_]{0,32}$/;

/** A YOURLS connection string, refused with a message when it is not `mysql://user:pass@host:port/db?prefix=…`. */
export class YourlsLocationError extends Error {}

interface YourlsLocation {
  options: { host: string; port: number; user: string; password: string; database: string };
  table: string;
}

/** `mysql://user:password@host:port/yourls_db?prefix=yourls_` → connection options and the url table's name. */
export function yourlsLocationOf(text: string): YourlsLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new YourlsLocationError(`${text} is not a mysql:// connection string`);
  }
  if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:')
    throw new YourlsLocationError('the YOURLS location must be a mysql:// connection string');
  const database = decodeURIComponent(url.pathname.slice(1));
  if (database === '' || database.includes('/'))
    throw new YourlsLocationError('the connection string names no database');
  const prefix = url.searchParams.get('prefix') ?? 'yourls_';
  if (!TABLE_PREFIX.test(prefix))
    throw new YourlsLocationError(`prefix "${prefix}" is not a table prefix (letters, digits, _)`);
  return {
    options: {
      host: url.hostname || '127.0.0.1',
      port: url.port === '' ? 3306 : Number(url.port),
      user: decodeURIComponent(url.username) || 'root',
      password: decodeURIComponent(url.password),
      database,
    },
    table: `${prefix}url`,
  };
}

interface YourlsRow extends RowDataPacket {
  keyword: string;
  url: string;
  timestamp: string | null;
  clicks: number | string;
}

/** A row of `yourls_url` (keyword, url, timestamp, clicks), as shlink-importer's YOURLS source maps it. */
export function linkOfYourlsRow(row: YourlsRow): SourceItem {
  const at = `keyword ${row.keyword}`;
  try {
    return {
      ok: true,
      link: {
        at,
        origin: originOf(row.keyword),
        code: row.keyword,
        url: row.url,
        credit: null,
        // YOURLS writes its server's local time; read as UTC (the usual setting of a YOURLS server).
        createdAt: dateOf(row.timestamp, 'timestamp'),
        tags: [],
        expiresAt: null,
        maxVisits: null,
        visits: Number(row.clicks),
      },
    };
  } catch (error) {
    if (error instanceof UnreadableValue) return { ok: false, at, code: row.keyword, reason: error.message };
    throw error;
  }
}

/**
 * `--from yourls mysql://…/yourls_db?prefix=yourls_`: YOURLS' own tables, read in a read-only
 * session (never written to), keyword after keyword.
 */
export async function yourlsSource(text: string): Promise<LinkSource> {
  const { options, table } = yourlsLocationOf(text);
  const connection: Connection = await createConnection({ ...options, dateStrings: true, connectTimeout: 10_000 });
  let done = 0;
  let total: number | null = null;
  async function* items(): AsyncGenerator<SourceItem> {
    try {
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      const [[count]] = await connection.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${table}\``);
      total = Number(count?.n ?? 0);
      let after: string | null = null;
      for (;;) {
        const [rows]: [YourlsRow[], unknown] = await connection.query<YourlsRow[]>(
          `SELECT keyword, url, DATE_FORMAT(timestamp, '%Y-%m-%d %H:%i:%s') AS timestamp, clicks FROM \`${table}\`
           ${after === null ? '' : 'WHERE keyword > ?'} ORDER BY keyword LIMIT ${ROWS_PER_QUERY}`,
          after === null ? [] : [after],
        );
        for (const row of rows) {
          done++;
          yield linkOfYourlsRow(row);
        }
        if (rows.length < ROWS_PER_QUERY) return;
        after = rows[rows.length - 1]!.keyword;
      }
    } finally {
      await connection.end();
    }
  }
  return { items: items(), progress: () => ({ done, total }) };
}
