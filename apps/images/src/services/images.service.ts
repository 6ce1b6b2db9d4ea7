import type { Category, CategoryInfoResponse, ImagePickType, ImageRecord, ImageWithCategory } from '@pawlink/contracts';
import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { CategoryRow } from '../db/entities/category.entity.js';
import type { ImageRow } from '../db/entities/image.entity.js';
import type { CategoryRepository, TypeStats } from '../repositories/category.repository.js';
import type { ImageFileRepository } from '../repositories/image-file.repository.js';
import type { ImageRepository } from '../repositories/image.repository.js';
import type { RecordCacheRepository } from '../repositories/record-cache.repository.js';
import type { PickFilter, SizeIndexRepository } from '../repositories/size-index.repository.js';
import { isCategoryKey } from './category-key.rules.js';
import { toImageRecord, toImageWithCategory } from './image-record.js';
import type { SizeIndexService } from './size-index.service.js';
import type { LogSink } from '@pawlink/service-kit/logger';

export interface ImagesServiceDeps {
  categories: Pick<CategoryRepository, 'find' | 'listWithContent' | 'typeStats' | 'hasContent'>;
  images: Pick<ImageRepository, 'findByIds' | 'countsByCategory'>;
  records: Pick<RecordCacheRepository, 'getMany' | 'setMany'>;
  index: Pick<SizeIndexRepository, 'pick' | 'remove'>;
  indexing: Pick<SizeIndexService, 'rebuild'>;
  files: Pick<ImageFileRepository, 'pathOf'>;
  imagesMediaUrl: string;
  /** How long a category row is trusted in process; 0 asks MySQL every time. */
  categoryCacheMs: number;
  logger: Pick<LogSink, 'warn'>;
  now?: () => number;
}

/** What the caller's key allows: with `sfwOnly` (the key's `sfw_only` flag) only SFW categories. */
export interface KeyAccess {
  sfwOnly?: boolean | undefined;
}

/** `type=` and `exclude=` of a random or bulk request, with what the key allows. */
export interface PickOptions extends KeyAccess {
  type?: ImagePickType | undefined;
  /** Lower-case MD5s, never picked while other images fit. */
  exclude?: readonly string[] | undefined;
}

/** One category of a bulk request and the number of images wanted from it. */
export interface BulkRequest {
  db: string;
  count: number;
}

const MEBIBYTE = 1024 * 1024;
const round3 = (value: number): number => Math.round(value * 1000) / 1000;
/** Picks retried after finding ids whose rows are gone; each retry has already removed them. */
const MAX_PICK_ATTEMPTS = 3;
/** Category keys quoted in messages are cut to this length. */
const QUOTED_KEY_MAX = 100;

const quote = (db: string): string => `"${db.slice(0, QUOTED_KEY_MAX)}"`;

/** 403 1058 for a non-SFW category asked for with an `sfw_only` key. */
function refuseUnlessSfw(access: KeyAccess, row: CategoryRow): void {
  if (access.sfwOnly && !row.sfw) throw new ApiError('SFW_ONLY_KEY', { message: `This API key may only use SFW categories, and ${quote(row.db)} is not one.` });
}

/** The filter a pick narrows to; none (the unfiltered fast path) without `type` and `exclude`. */
function pickFilter(options: PickOptions): PickFilter | undefined {
  const exclude = options.exclude ?? [];
  return exclude.length === 0 && options.type === undefined ? undefined : { exclude, type: options.type };
}

/** Rules of the images API: categories, lookups and random picks through the size index. */
/** How long the documentation page's category counts are reused: a page view costs no more than one GROUP BY a while. */
export const CATEGORY_COUNTS_CACHE_MS = 30_000;

/** A category and its number of images, as the documentation page lists it. */
export interface CategoryCount {
  name: string;
  db: string;
  images: number;
  enabled: boolean;
}

export class ImagesService {
  private counts: { value: Promise<CategoryCount[]>; expires: number } | undefined;
  private readonly cache = new Map<string, { row: CategoryRow | null; expires: number }>();
  private readonly stats = new Map<string, { stats: Promise<TypeStats[]>; expires: number }>();
  private readonly now: () => number;

  constructor(private readonly deps: ImagesServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  private async category(db: string): Promise<CategoryRow | null> {
    if (!isCategoryKey(db)) return null;
    const ttl = this.deps.categoryCacheMs;
    const hit = ttl > 0 ? this.cache.get(db) : undefined;
    if (hit && hit.expires > this.now()) return hit.row;
    const row = await this.deps.categories.find(db);
    if (ttl > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(db, { row, expires: this.now() + ttl });
    }
    return row;
  }

  async listCategories(): Promise<{ enabled: Category[]; disabled: Category[] }> {
    const enabled: Category[] = [];
    const disabled: Category[] = [];
    for (const row of await this.deps.categories.listWithContent()) {
      const category = { name: row.name, db: row.db, sfw: row.sfw };
      if (row.disabled) disabled.push({ ...category, _comment: row.disabledComment ?? 'Category is disabled.' });
      else if (!row.hasContent) disabled.push({ ...category, _comment: NEVER_HAD_CONTENT_COMMENT });
      else enabled.push(category);
    }
    return { enabled, disabled };
  }

  /** Every category with its image count (enabled first, then by key), reused for CATEGORY_COUNTS_CACHE_MS; a failure is not kept. */
  categoryCounts(): Promise<CategoryCount[]> {
    const now = this.now();
    if (this.counts && this.counts.expires > now) return this.counts.value;
    const value = Promise.all([this.deps.categories.listWithContent(), this.deps.images.countsByCategory()]).then(([rows, counts]) =>
      rows
        .map((row) => ({ name: row.name, db: row.db, images: counts.get(row.db) ?? 0, enabled: !row.disabled && row.hasContent }))
        .sort((a, b) => Number(b.enabled) - Number(a.enabled) || a.db.localeCompare(b.db)),
    );
    const entry = { value, expires: now + CATEGORY_COUNTS_CACHE_MS };
    this.counts = entry;
    value.catch(() => {
      if (this.counts === entry) this.counts = undefined;
    });
    return value;
  }

  /** A category with its files' count, bytes and types; unknown → 1030. */
  async categoryInfo(db: string): Promise<CategoryInfoResponse['data']> {
    const row = await this.category(db);
    if (!row) throw new ApiError('CATEGORY_NOT_FOUND');
    const stats = await this.typeStats(db);
    const total = stats.reduce((sum, s) => sum + s.count, 0);
    const totalSize = stats.reduce((sum, s) => sum + s.totalSize, 0);
    const average = total === 0 ? 0 : Math.round(totalSize / total);
    const comment = row.disabled ? (row.disabledComment ?? 'Category is disabled.') : total === 0 ? NEVER_HAD_CONTENT_COMMENT : undefined;
    return {
      name: row.name,
      db: row.db,
      sfw: row.sfw,
      disabled: comment !== undefined,
      ...(comment !== undefined ? { _comment: comment } : {}),
      files: {
        exists: total > 0,
        list: {
          total,
          size: { total: totalSize, totalM: round3(totalSize / MEBIBYTE), average, averageM: round3(average / MEBIBYTE) },
          types: Object.fromEntries(stats.map((s) => [s.mimeType, s.count])),
        },
      },
    };
  }

  /**
   * Count and bytes per type, which MySQL aggregates over the whole category: trusted as long as a
   * category row, and shared by concurrent requests, so a public endpoint cannot keep MySQL
   * scanning a category of millions.
   */
  private typeStats(db: string): Promise<TypeStats[]> {
    const now = this.now();
    const hit = this.stats.get(db);
    if (hit && hit.expires > now) return hit.stats;
    // Only categories that exist get here, so the map stays as small as the category list.
    const stats = this.deps.categories.typeStats(db);
    this.stats.set(db, { stats, expires: now + this.deps.categoryCacheMs });
    stats.catch(() => {
      if (this.stats.get(db)?.stats === stats) this.stats.delete(db);
    });
    return stats;
  }

  /**
   * One image by its id (a lower-case MD5) with its category; unknown → 1040. From the record
   * cache like random picks (MySQL on a miss, which then caches it). An `sfw_only` key asking for
   * an image of a category that is not SFW → 1058.
   */
  async image(id: string, access: KeyAccess = {}): Promise<ImageWithCategory> {
    const { found } = await this.loadRows([id], await this.deps.records.getMany([id]));
    const [row] = found;
    if (!row) throw new ApiError('IMAGE_NOT_FOUND');
    if (access.sfwOnly) {
      const category = await this.category(row.category);
      // Every image has its category (a foreign key): a missing one is no more SFW than any other.
      if (!category) throw new ApiError('SFW_ONLY_KEY');
      refuseUnlessSfw(access, category);
    }
    return toImageWithCategory(row, this.deps.imagesMediaUrl);
  }

  /**
   * `amount` random images of an enabled category with content, never one twice: all of those
   * that match when fewer do (API.md §6.1); only of `options.type` and never `options.exclude`
   * when given. Unknown, disabled or empty →
   * 1030; not SFW for an `sfw_only` key → 1058; nothing at or under `sizeLimit` (of that type,
   * not excluded) → 1041.
   */
  async random(db: string, amount: number, sizeLimit?: number, options: PickOptions = {}): Promise<ImageRecord[]> {
    const row = await this.category(db);
    if (!row || row.disabled) throw new ApiError('CATEGORY_NOT_FOUND');
    refuseUnlessSfw(options, row);
    const filter = pickFilter(options);
    const rows = await this.pickRows(db, amount, sizeLimit, filter);
    if (rows === 'empty') throw new ApiError('CATEGORY_NOT_FOUND');
    if (rows.length === 0) {
      throw filter ? new ApiError('NO_RESULTS', { message: 'No images were found that fit the size limit, the type and the exclusions.' }) : new ApiError('NO_RESULTS');
    }
    return rows.map((r) => toImageRecord(r, this.deps.imagesMediaUrl));
  }

  /** One random image, as `random` picks it, and where its file is (for sending its bytes). */
  async randomFile(db: string, sizeLimit?: number, options: PickOptions = {}): Promise<{ image: ImageRecord; file: string }> {
    const [image] = (await this.random(db, 1, sizeLimit, options)) as [ImageRecord];
    return { image, file: this.deps.files.pathOf(image.id, image.ext) };
  }

  /**
   * Bulk: the counts may add up to at most the key's `limit` (1056, naming both); every category
   * must be enabled with content (1055 names the first that is not) and, for an `sfw_only` key,
   * SFW (1058 names the first that is not). `sizeLimit`, `type` and `exclude` apply to every
   * category; one with nothing that fits them gives an empty list, one with fewer than its count
   * each fitting image once.
   */
  async bulk(requests: readonly BulkRequest[], options: PickOptions & { limit: number; sizeLimit?: number | undefined }): Promise<Record<string, ImageRecord[]>> {
    const total = requests.reduce((sum, r) => sum + r.count, 0);
    if (total > options.limit) {
      throw new ApiError('BULK_OVER_LIMIT', { message: `Bulk request total is above your limit: you asked for ${total} images and your limit is ${options.limit}.` });
    }
    // Looked up together (up to 100 keys), checked in body order so 1055 names the first bad one.
    const rows = await Promise.all(requests.map(({ db }) => this.category(db)));
    const invalid = requests.find((_, i) => !rows[i] || rows[i].disabled);
    if (invalid) {
      throw new ApiError('BULK_INVALID_CATEGORY', { message: `Invalid category in bulk request: "${invalid.db.slice(0, QUOTED_KEY_MAX)}" does not exist or is disabled.` });
    }
    for (const row of rows) refuseUnlessSfw(options, row!);
    const filter = pickFilter(options);
    const picked = await Promise.all(requests.map(async ({ db, count }) => [db, await this.pickRows(db, count, options.sizeLimit, filter)] as const));
    const data: Record<string, ImageRecord[]> = {};
    for (const [db, rows] of picked) {
      if (rows === 'empty') {
        throw new ApiError('BULK_INVALID_CATEGORY', { message: `Invalid category in bulk request: "${db.slice(0, QUOTED_KEY_MAX)}" has no images.` });
      }
      data[db] = rows.map((r) => toImageRecord(r, this.deps.imagesMediaUrl));
    }
    return data;
  }

  /**
   * Up to `amount` distinct random rows (the index draws distinct ids): every fitting one when
   * fewer fit. 'empty' when the category has no images at all; [] when none fits the limit.
   */
  private async pickRows(db: string, amount: number, sizeLimit?: number, filter?: PickFilter): Promise<ImageRow[] | 'empty'> {
    let rows: ImageRow[] = [];
    // Without a filter the call is the one it always was: the benchmarked fast path.
    const pickOnce = () => (filter ? this.deps.index.pick(db, amount, sizeLimit, filter) : this.deps.index.pick(db, amount, sizeLimit));
    for (let attempt = 0; attempt < MAX_PICK_ATTEMPTS; attempt++) {
      let pick = await pickOnce();
      if (pick.total === 0) {
        // An empty set is also what a lost index looks like: ask MySQL (cheap, one index probe) and rebuild.
        if (!(await this.deps.categories.hasContent(db))) return 'empty';
        await this.deps.indexing.rebuild(db);
        pick = await pickOnce();
        if (pick.total === 0) return 'empty';
      }
      const { found, stale } = await this.loadRows(pick.ids, pick.rows);
      rows = found;
      if (stale.length === 0) break;
      // Ids whose rows are gone (a removal the index missed, an index restored from an old
      // snapshot): drop them so they are never picked again, and pick anew.
      await Promise.all(stale.map((id) => this.deps.index.remove(db, id)));
      this.deps.logger.warn('removed stale ids from the size index', { category: db, ids: stale });
    }
    return rows;
  }

  /**
   * Rows by id in the given order (`cached` from the record cache, the rest from MySQL, then
   * cached), and the ids MySQL no longer has.
   */
  private async loadRows(ids: readonly string[], cached: Map<string, ImageRow>): Promise<{ found: ImageRow[]; stale: string[] }> {
    const missing = ids.filter((id) => !cached.has(id));
    if (missing.length > 0) {
      const loaded = await this.deps.images.findByIds(missing);
      for (const row of loaded) cached.set(row.id, row);
      await this.deps.records.setMany(loaded);
    }
    const found: ImageRow[] = [];
    const stale: string[] = [];
    for (const id of ids) {
      const row = cached.get(id);
      if (row) found.push(row);
      else stale.push(id);
    }
    return { found, stale };
  }
}
