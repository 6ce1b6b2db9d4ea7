import type { ImageFileRepository } from '../repositories/image-file.repository.js';
import type { ImageThumbhashRepository } from '../repositories/image-thumbhash.repository.js';
import type { ImageRepository } from '../repositories/image.repository.js';
import type { RecordCacheRepository } from '../repositories/record-cache.repository.js';
import type { ThumbhashRepository } from '../repositories/thumbhash.repository.js';

export interface ThumbhashBackfillDeps {
  thumbhashColumn: Pick<ImageThumbhashRepository, 'pageWithout' | 'set'>;
  files: Pick<ImageFileRepository, 'pathOf'>;
  thumbhashes: Pick<ThumbhashRepository, 'of'>;
  images: Pick<ImageRepository, 'findById'>;
  records: Pick<RecordCacheRepository, 'setMany'>;
}

export interface ThumbhashBackfillResult {
  updated: number;
  /** Images whose file is missing or unreadable: their ThumbHash stays null. */
  failed: Array<{ id: string; reason: string }>;
}

const PAGE = 200;

/**
 * Computes the ThumbHash of every image that has none (imported before the column existed, or
 * whose hash failed at import) from its media file, stores it and refreshes its cached record.
 * Safe to run again: it only visits rows still without one.
 */
export class ThumbhashBackfillService {
  constructor(private readonly deps: ThumbhashBackfillDeps) {}

  async backfill(onImage: (id: string, ok: boolean) => void = () => undefined): Promise<ThumbhashBackfillResult> {
    const { thumbhashColumn, files, thumbhashes, images, records } = this.deps;
    const result: ThumbhashBackfillResult = { updated: 0, failed: [] };
    let after = '';
    for (;;) {
      const page = await thumbhashColumn.pageWithout(after, PAGE);
      if (page.length === 0) return result;
      for (const { id, ext } of page) {
        after = id;
        let thumbhash: string;
        try {
          thumbhash = await thumbhashes.of(files.pathOf(id, ext));
        } catch (error) {
          result.failed.push({ id, reason: String((error as Error).message).split('\n')[0]! });
          onImage(id, false);
          continue;
        }
        if (await thumbhashColumn.set(id, thumbhash)) {
          const row = await images.findById(id);
          if (row) await records.setMany([{ ...row, thumbhash }]);
          result.updated++;
        }
        onImage(id, true);
      }
    }
  }
}
