import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { forEachConcurrently } from '@pawlink/bench';
import type mysql from 'mysql2/promise';
import type { ImagesRepositories } from '../src/container.js';
import type { ImageRow } from '../src/db/entities/image.entity.js';
import type { IdAndSize } from '../src/repositories/image.repository.js';

const INSERT_BATCH = 5_000;
const REDIS_BATCH = 1_000;
const REDIS_WRITES_IN_FLIGHT = 8;
const SAMPLE_SIZE = 1_000;
const TYPES = [
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['gif', 'image/gif'],
] as const;

/** What a filled category holds and how long filling it took. */
export interface SeededCategory {
  db: string;
  /** Up to SAMPLE_SIZE of its ids, spread over the whole category. */
  sample: string[];
  mysqlSeconds: number;
  redisSeconds: number;
}

/** A row before it is spelled out: a million of these fit where a million ImageRows would not. */
interface CompactRow {
  id: string;
  size: number;
  type: number;
}

/** `count` rows of a category: MD5-like ids, sizes up to 8 MiB, in primary-key order. */
function makeRows(db: string, count: number): CompactRow[] {
  const rows: CompactRow[] = new Array<CompactRow>(count);
  for (let i = 0; i < count; i++)
    rows[i] = {
      id: createHash('md5').update(`${db}:${i}`).digest('hex'),
      size: 1024 + Math.floor(Math.random() * 8 * 1024 * 1024),
      type: i % TYPES.length,
    };
  // Sorted by primary key so InnoDB appends instead of splitting pages.
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1));
}

const ARTISTS = ['Bench Artist'];
const SOURCES = ['https://example.com/bench'];

function toImageRow(db: string, row: CompactRow, createdAt: Date): ImageRow {
  const [ext, mimeType] = TYPES[row.type]!;
  return {
    id: row.id,
    category: db,
    ext,
    mimeType,
    size: row.size,
    width: 640,
    height: 480,
    artists: ARTISTS,
    sources: SOURCES,
    reportUrl: null,
    shortUrl: null,
    createdAt,
    animated: isAnimated(row),
  };
}

/** The bench's GIFs count as animated, so `type=animated` has a third of each category to pick from. */
const isAnimated = (row: CompactRow): boolean => TYPES[row.type]![0] === 'gif';

function* inBatches(rows: readonly CompactRow[]): Generator<IdAndSize[]> {
  for (let offset = 0; offset < rows.length; offset += INSERT_BATCH) {
    yield rows
      .slice(offset, offset + INSERT_BATCH)
      .map((row) => ({ id: row.id, size: row.size, ext: TYPES[row.type]![0], animated: isAnimated(row) }));
  }
}

/**
 * Fills a category as `images import` leaves it, without files: the rows in MySQL (multi-row
 * inserts; importing a million files one by one would take hours), then the size index and the
 * record cache in Redis through the service's own repositories.
 */
export async function seedCategory(
  connection: mysql.Connection,
  repositories: Pick<ImagesRepositories, 'sizeIndex' | 'records'>,
  db: string,
  count: number,
): Promise<SeededCategory> {
  const started = Date.now();
  await connection.query(
    'INSERT INTO categories (db, name, disabled, disabled_comment, created_at) VALUES (?, ?, 0, NULL, NOW(3))',
    [db, `Bench > ${db}`],
  );
  const rows = makeRows(db, count);
  const createdAt = new Date();
  for (let offset = 0; offset < count; offset += INSERT_BATCH) {
    const values = rows
      .slice(offset, offset + INSERT_BATCH)
      .map((compact) => toImageRow(db, compact, createdAt))
      .map((r) => [
        r.id,
        r.category,
        r.ext,
        r.mimeType,
        r.size,
        r.width,
        r.height,
        JSON.stringify(r.artists),
        JSON.stringify(r.sources),
        r.reportUrl,
        r.shortUrl,
        r.createdAt,
        r.animated ? 1 : 0,
      ]);
    await connection.query(
      'INSERT INTO images (id, category, ext, mime_type, size, width, height, artists, sources, report_url, short_url, created_at, animated) VALUES ?',
      [values],
    );
  }
  const inserted = Date.now();
  // Readable.from: the rebuild reads MySQL in batches asynchronously; here they come from memory.
  await repositories.sizeIndex.rebuild(db, Readable.from(inBatches(rows)));
  await forEachConcurrently(Math.ceil(count / REDIS_BATCH), REDIS_WRITES_IN_FLIGHT, async (batch) => {
    const offset = batch * REDIS_BATCH;
    await repositories.records.setMany(
      rows.slice(offset, offset + REDIS_BATCH).map((compact) => toImageRow(db, compact, createdAt)),
    );
  });
  const step = Math.max(1, Math.floor(count / SAMPLE_SIZE));
  const sample = rows
    .filter((_, i) => i % step === 0)
    .slice(0, SAMPLE_SIZE)
    .map((r) => r.id);
  return { db, sample, mysqlSeconds: (inserted - started) / 1000, redisSeconds: (Date.now() - inserted) / 1000 };
}
