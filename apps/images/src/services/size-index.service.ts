import type { ImagePickType } from '@pawlink/contracts';
import type { ImageRepository } from '../repositories/image.repository.js';
import type { SizeIndexRepository } from '../repositories/size-index.repository.js';
import type { LogSink } from '@pawlink/service-kit/logger';

export interface SizeIndexServiceDeps {
  index: Pick<SizeIndexRepository, 'addIfIndexed' | 'rebuild' | 'size' | 'typedSize'>;
  images: Pick<ImageRepository, 'idsAndSizes' | 'countsByCategory'>;
  logger: Pick<LogSink, 'info'>;
}

/**
 * Keeps each category's size index (the Redis sorted set random picks read) in step with MySQL,
 * which is the truth: the one place an index is rebuilt, whoever finds it missing or stale
 * (the service at start, a request, an import, `bin/admin images reindex`).
 */
export class SizeIndexService {
  private readonly rebuilding = new Map<string, Promise<number>>();

  constructor(private readonly deps: SizeIndexServiceDeps) {}

  /** Rebuilds one category's index from MySQL; concurrent callers share one rebuild. Returns its size. */
  async rebuild(db: string): Promise<number> {
    const running = this.rebuilding.get(db);
    if (running) return running;
    const job = this.deps.index.rebuild(db, this.deps.images.idsAndSizes(db)).finally(() => this.rebuilding.delete(db));
    this.rebuilding.set(db, job);
    const count = await job;
    this.deps.logger.info('rebuilt size index', { category: db, images: count });
    return count;
  }

  /**
   * Indexes a newly stored image. A category whose set is missing is rebuilt whole instead (MySQL
   * already has the row): a set started with this one image would look healthy and hide the rest.
   */
  async add(db: string, id: string, size: number, types: readonly ImagePickType[]): Promise<void> {
    if (!(await this.deps.index.addIfIndexed(db, id, size, types))) await this.rebuild(db);
  }

  /**
   * At start: rebuilds the index of every category whose set is missing or holds another number
   * of images than MySQL (a Redis restored from an older snapshot, say), or whose type-class sets
   * do not add up to it (an index built before they existed).
   */
  async ensureAll(): Promise<void> {
    for (const [db, stored] of await this.deps.images.countsByCategory()) {
      if ((await this.deps.index.size(db)) !== stored || (await this.deps.index.typedSize(db)) !== stored)
        await this.rebuild(db);
    }
  }
}
