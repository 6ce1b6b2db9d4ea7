import type { ImageRecord } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { LogSink } from '@pawlink/service-kit/logger';
import type { ImageRow } from '../db/entities/image.entity.js';
import type { CategoryCacheRepository } from '../repositories/category-cache.repository.js';
import type { CategoryRepository } from '../repositories/category.repository.js';
import type { ImageFileRepository } from '../repositories/image-file.repository.js';
import type { ImageRowsRepository } from '../repositories/image-rows.repository.js';
import type { SizeIndexRepository } from '../repositories/size-index.repository.js';
import { toImageRecord } from '../domain/image-record.rules.js';
import { refuseUnlessSfw } from '../domain/key-access.rules.js';
import { pickFilter, type PickFilter, type PickOptions } from '../domain/pick-options.rules.js';
import type { SizeIndexService } from './size-index.service.js';

export interface RandomImagesServiceDeps {
  /** Category rows, trusted in process. */
  categoryCache: Pick<CategoryCacheRepository, 'find'>;
  /** Whether MySQL has images of a category whose index is empty. */
  categories: Pick<CategoryRepository, 'hasContent'>;
  index: Pick<SizeIndexRepository, 'pick' | 'remove'>;
  indexing: Pick<SizeIndexService, 'rebuild'>;
  rows: Pick<ImageRowsRepository, 'byIds'>;
  files: Pick<ImageFileRepository, 'pathOf'>;
  imagesMediaUrl: string;
  logger: Pick<LogSink, 'warn'>;
}

/** Picks retried after finding ids whose rows are gone; each retry has already removed them. */
const MAX_PICK_ATTEMPTS = 3;

/**
 * `GET /:category`: random images of a category through its size index, as JSON records or the
 * file of one. `pickRows` is the pick itself, which `POST /bulk` makes for each of its categories.
 */
export class RandomImagesService {
  constructor(private readonly deps: RandomImagesServiceDeps) {}

  /**
   * `amount` random images of an enabled category with content, never one twice: all of those
   * that match when fewer do (docs/api.md §3); only of `options.type` and never `options.exclude`
   * when given. Unknown, disabled or empty → 1030; not SFW for an `sfw_only` key → 1058; nothing
   * at or under `sizeLimit` (of that type, not excluded) → 1041.
   */
  async random(db: string, amount: number, sizeLimit?: number, options: PickOptions = {}): Promise<ImageRecord[]> {
    const row = await this.deps.categoryCache.find(db);
    if (!row || row.disabled) throw new ApiError('CATEGORY_NOT_FOUND');
    refuseUnlessSfw(options, row);
    const filter = pickFilter(options);
    const rows = await this.pickRows(db, amount, sizeLimit, filter);
    if (rows === 'empty') throw new ApiError('CATEGORY_NOT_FOUND');
    if (rows.length === 0) {
      throw filter
        ? new ApiError('NO_RESULTS', {
            message: 'No images were found that fit the size limit, the type and the exclusions.',
          })
        : new ApiError('NO_RESULTS');
    }
    return rows.map((r) => toImageRecord(r, this.deps.imagesMediaUrl));
  }

  /** One random image, as `random` picks it, and where its file is (for sending its bytes). */
  async randomFile(
    db: string,
    sizeLimit?: number,
    options: PickOptions = {},
  ): Promise<{ image: ImageRecord; file: string }> {
    const [image] = (await this.random(db, 1, sizeLimit, options)) as [ImageRecord];
    return { image, file: this.deps.files.pathOf(image.id, image.ext) };
  }

  /**
   * Up to `amount` distinct random rows (the index draws distinct ids): every fitting one when
   * fewer fit. 'empty' when the category has no images at all; [] when none fits the limit.
   */
  async pickRows(db: string, amount: number, sizeLimit?: number, filter?: PickFilter): Promise<ImageRow[] | 'empty'> {
    let rows: ImageRow[] = [];
    // Without a filter the call is the one it always was: the benchmarked fast path.
    const pickOnce = () =>
      filter ? this.deps.index.pick(db, amount, sizeLimit, filter) : this.deps.index.pick(db, amount, sizeLimit);
    for (let attempt = 0; attempt < MAX_PICK_ATTEMPTS; attempt++) {
      let pick = await pickOnce();
      if (pick.total === 0) {
        // An empty set is also what a lost index looks like: ask MySQL (cheap, one index probe) and rebuild.
        if (!(await this.deps.categories.hasContent(db))) return 'empty';
        await this.deps.indexing.rebuild(db);
        pick = await pickOnce();
        if (pick.total === 0) return 'empty';
      }
      const { found, missing: stale } = await this.deps.rows.byIds(pick.ids, pick.rows);
      rows = found;
      if (stale.length === 0) break;
      // Ids whose rows are gone (a removal the index missed, an index restored from an old
      // snapshot): drop them so they are never picked again, and pick anew.
      await Promise.all(stale.map((id) => this.deps.index.remove(db, id)));
      this.deps.logger.warn('removed stale ids from the size index', { category: db, ids: stale });
    }
    return rows;
  }
}
