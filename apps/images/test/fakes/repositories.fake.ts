import type { CategoryRow } from '../../src/db/entities/category.entity.js';
import type { ImageRow } from '../../src/db/entities/image.entity.js';
import type { CategoryRepository, CategoryWithContent, TypeStats } from '../../src/repositories/category.repository.js';
import type { ImageFileRepository } from '../../src/repositories/image-file.repository.js';
import type { ImageHeader, ImageProbeRepository } from '../../src/repositories/image-probe.repository.js';
import type { IdAndSize, ImageRepository } from '../../src/repositories/image.repository.js';
import type { RecordCacheRepository } from '../../src/repositories/record-cache.repository.js';
import type { LogSink } from '@pawlink/service-kit/logger';
import type { PickFilter } from '../../src/domain/pick-options.rules.js';
import type { RandomPick, SizeIndexRepository } from '../../src/repositories/size-index.repository.js';
import type { ImagePickType } from '@pawlink/contracts';
import { pickTypesOf } from '../../src/domain/image-type.policy.js';

/*
 * In-memory stand-ins for the images repositories, for the service specs: the same contracts
 * (what each method returns for what is stored), none of the I/O.
 */

export class FakeImageRepository implements Pick<
  ImageRepository,
  'findById' | 'findByIds' | 'insert' | 'remove' | 'idsAndSizes' | 'countsByCategory'
> {
  readonly rows = new Map<string, ImageRow>();
  /** Set to make the next inserts fail as the database would (a foreign key, a lost connection). */
  insertError: Error | undefined;
  /** Set to make inserts report a duplicate, as when another import stored the same MD5 meanwhile. */
  insertRace: ImageRow | undefined;
  readonly calls = { findByIds: 0 };

  findById(id: string): Promise<ImageRow | null> {
    return Promise.resolve(this.rows.get(id) ?? null);
  }

  findByIds(ids: readonly string[]): Promise<ImageRow[]> {
    this.calls.findByIds++;
    return Promise.resolve(ids.flatMap((id) => (this.rows.has(id) ? [this.rows.get(id)!] : [])));
  }

  insert(row: ImageRow): Promise<boolean> {
    if (this.insertError) return Promise.reject(this.insertError);
    if (this.insertRace) {
      this.rows.set(this.insertRace.id, this.insertRace);
      return Promise.resolve(false);
    }
    if (this.rows.has(row.id)) return Promise.resolve(false);
    this.rows.set(row.id, row);
    return Promise.resolve(true);
  }

  remove(id: string): Promise<boolean> {
    return Promise.resolve(this.rows.delete(id));
  }

  async *idsAndSizes(category: string): AsyncGenerator<IdAndSize[]> {
    await Promise.resolve();
    const page = [...this.rows.values()]
      .filter((r) => r.category === category)
      .map((r) => ({ id: r.id, size: r.size, ext: r.ext, animated: r.animated ?? false }));
    if (page.length > 0) yield page;
  }

  countsByCategory(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const row of this.rows.values()) counts.set(row.category, (counts.get(row.category) ?? 0) + 1);
    return Promise.resolve(counts);
  }

  inCategory(category: string): ImageRow[] {
    return [...this.rows.values()].filter((r) => r.category === category);
  }
}

export class FakeCategoryRepository implements Pick<
  CategoryRepository,
  'find' | 'count' | 'listWithContent' | 'hasContent' | 'typeStats' | 'create' | 'setDisabled' | 'setSfw'
> {
  readonly rows = new Map<string, CategoryRow>();
  readonly calls = { find: 0 };

  constructor(private readonly images: FakeImageRepository) {}

  find(db: string): Promise<CategoryRow | null> {
    this.calls.find++;
    return Promise.resolve(this.rows.get(db) ?? null);
  }

  count(): Promise<number> {
    return Promise.resolve(this.rows.size);
  }

  listWithContent(): Promise<CategoryWithContent[]> {
    const sorted = [...this.rows.values()].sort((a, b) => (a.db < b.db ? -1 : 1));
    return Promise.resolve(sorted.map((row) => ({ ...row, hasContent: this.images.inCategory(row.db).length > 0 })));
  }

  hasContent(db: string): Promise<boolean> {
    return Promise.resolve(this.images.inCategory(db).length > 0);
  }

  typeStats(db: string): Promise<TypeStats[]> {
    const byType = new Map<string, TypeStats>();
    for (const row of this.images.inCategory(db)) {
      const stats = byType.get(row.mimeType) ?? { mimeType: row.mimeType, count: 0, totalSize: 0 };
      stats.count++;
      stats.totalSize += row.size;
      byType.set(row.mimeType, stats);
    }
    return Promise.resolve([...byType.values()].sort((a, b) => (a.mimeType < b.mimeType ? -1 : 1)));
  }

  create(db: string, name: string, sfw = false): Promise<boolean> {
    if (this.rows.has(db)) return Promise.resolve(false);
    this.rows.set(db, { db, name, sfw, disabled: false, disabledComment: null, createdAt: new Date(0) });
    return Promise.resolve(true);
  }

  setSfw(db: string, sfw: boolean): Promise<boolean> {
    const row = this.rows.get(db);
    if (!row) return Promise.resolve(false);
    this.rows.set(db, { ...row, sfw });
    return Promise.resolve(true);
  }

  setDisabled(db: string, disabled: boolean, comment: string | null): Promise<boolean> {
    const row = this.rows.get(db);
    if (!row) return Promise.resolve(false);
    this.rows.set(db, { ...row, disabled, disabledComment: disabled ? comment : null });
    return Promise.resolve(true);
  }
}

/**
 * Sorted sets as maps of id → size; a missing map is a missing set. Like the real script, a pick
 * also reads the picked ids' records from `records` (the record cache fake) when it is given.
 */
export class FakeSizeIndexRepository implements Pick<
  SizeIndexRepository,
  'pick' | 'remove' | 'addIfIndexed' | 'rebuild' | 'size' | 'typedSize'
> {
  readonly sets = new Map<string, Map<string, number>>();
  /** The type classes of each indexed id. */
  readonly types = new Map<string, readonly ImagePickType[]>();
  readonly calls = { rebuild: 0, remove: [] as string[] };

  constructor(private readonly records?: FakeRecordCacheRepository) {}

  pick(db: string, amount: number, sizeLimit?: number, filter: PickFilter = {}): Promise<RandomPick> {
    const set = this.sets.get(db) ?? new Map<string, number>();
    const eligible = [...set]
      .filter(
        ([id, size]) =>
          (sizeLimit === undefined || size <= sizeLimit) &&
          !filter.exclude?.includes(id) &&
          (filter.type === undefined || (this.types.get(id) ?? []).includes(filter.type)),
      )
      .map(([id]) => id);
    for (let i = eligible.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [eligible[i], eligible[j]] = [eligible[j]!, eligible[i]!];
    }
    const ids = eligible.slice(0, amount);
    const rows = new Map(
      ids.flatMap((id) => (this.records?.rows.has(id) ? [[id, this.records.rows.get(id)!] as const] : [])),
    );
    return Promise.resolve({ total: set.size, eligible: eligible.length, ids, rows });
  }

  remove(db: string, id: string): Promise<void> {
    this.calls.remove.push(id);
    this.sets.get(db)?.delete(id);
    return Promise.resolve();
  }

  addIfIndexed(db: string, id: string, size: number, types: readonly ImagePickType[] = []): Promise<boolean> {
    const set = this.sets.get(db);
    set?.set(id, size);
    if (set) this.types.set(id, types);
    return Promise.resolve(set !== undefined);
  }

  async rebuild(db: string, batches: AsyncIterable<IdAndSize[]>): Promise<number> {
    this.calls.rebuild++;
    const set = new Map<string, number>();
    for await (const batch of batches) {
      for (const { id, size, ext, animated } of batch) {
        set.set(id, size);
        this.types.set(id, pickTypesOf(ext, animated));
      }
    }
    if (set.size > 0) this.sets.set(db, set);
    else this.sets.delete(db);
    return set.size;
  }

  size(db: string): Promise<number> {
    return Promise.resolve(this.sets.get(db)?.size ?? 0);
  }

  typedSize(db: string): Promise<number> {
    return Promise.resolve(
      [...(this.sets.get(db)?.keys() ?? [])].filter((id) =>
        this.types.get(id)?.some((t) => t === 'animated' || t === 'still'),
      ).length,
    );
  }
}

export class FakeRecordCacheRepository implements Pick<RecordCacheRepository, 'getMany' | 'setMany' | 'remove'> {
  readonly rows = new Map<string, ImageRow>();

  getMany(ids: readonly string[]): Promise<Map<string, ImageRow>> {
    return Promise.resolve(
      new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!] as const] : []))),
    );
  }

  setMany(rows: readonly ImageRow[]): Promise<void> {
    for (const row of rows) this.rows.set(row.id, row);
    return Promise.resolve();
  }

  remove(id: string): Promise<void> {
    this.rows.delete(id);
    return Promise.resolve();
  }
}

export class FakeImageFileRepository implements Pick<
  ImageFileRepository,
  'pathOf' | 'exists' | 'place' | 'remove' | 'removeStaleTemps'
> {
  readonly files = new Map<string, Uint8Array>();
  /** Set to make placing fail (a full disk, a read-only media directory). */
  placeError: Error | undefined;
  staleTempsAsked: number | undefined;

  pathOf(id: string, ext: string): string {
    return `/media/images/${id}.${ext}`;
  }

  exists(id: string, ext: string): Promise<boolean> {
    return Promise.resolve(this.files.has(this.pathOf(id, ext)));
  }

  place(id: string, ext: string, bytes: Uint8Array): Promise<void> {
    if (this.placeError) return Promise.reject(this.placeError);
    this.files.set(this.pathOf(id, ext), bytes);
    return Promise.resolve();
  }

  remove(id: string, ext: string): Promise<void> {
    this.files.delete(this.pathOf(id, ext));
    return Promise.resolve();
  }

  removeStaleTemps(olderThanMs: number): Promise<number> {
    this.staleTempsAsked = olderThanMs;
    return Promise.resolve(2);
  }
}

/** What a fake image file says about itself; its bytes are this as JSON. */
export interface FakeImageContent {
  format?: string;
  width?: number;
  height?: number;
  /** The header reads, decoding the pixels fails. */
  truncated?: boolean;
  /** More than one frame. */
  animated?: boolean;
  /** Makes otherwise equal images distinct (another MD5). */
  seed?: number;
}

export const fakeImageBytes = (content: FakeImageContent): Buffer => Buffer.from(JSON.stringify(content));

/** Files are the entries of `files`; bytes that are not a FakeImageContent are no image. */
export class FakeImageProbeRepository implements Pick<ImageProbeRepository, 'read' | 'header' | 'decode'> {
  readonly files = new Map<string, Buffer>();

  read(file: string): Promise<Buffer> {
    const bytes = this.files.get(file);
    return bytes
      ? Promise.resolve(bytes)
      : Promise.reject(new Error(`ENOENT: no such file or directory, open '${file}'`));
  }

  header(bytes: Buffer): Promise<ImageHeader> {
    const content = this.parse(bytes);
    return Promise.resolve({
      format: content.format,
      width: content.width,
      height: content.height,
      animated: content.animated ?? false,
    });
  }

  decode(bytes: Buffer): Promise<void> {
    return this.parse(bytes).truncated
      ? Promise.reject(new Error('VipsJpeg: premature end of input file\nmore detail'))
      : Promise.resolve();
  }

  private parse(bytes: Buffer): FakeImageContent {
    try {
      return JSON.parse(bytes.toString()) as FakeImageContent;
    } catch {
      throw new Error('Input buffer contains unsupported image format');
    }
  }
}

/** A logger that keeps what it was told. */
export function fakeLogger(): LogSink & { lines: Array<{ level: string; message: string; meta: unknown }> } {
  const lines: Array<{ level: string; message: string; meta: unknown }> = [];
  return {
    lines,
    info: (message: string, meta?: unknown) => void lines.push({ level: 'info', message, meta }),
    warn: (message: string, meta?: unknown) => void lines.push({ level: 'warn', message, meta }),
  };
}
