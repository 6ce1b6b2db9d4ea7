import { ApiError } from '@pawlink/service-kit';
import type { PendingVisitsRepository } from '../repositories/pending-visits.repository.js';
import type { PreviewCacheRepository } from '../repositories/preview-cache.repository.js';
import type { RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import { authorisedEntry } from '../domain/management-code.rules.js';

export interface DeleteShortUrlDeps {
  repository: Pick<ShortUrlRepository, 'findByCode' | 'delete'>;
  /** Told of the delete, which it announces to every instance. */
  cache: Pick<RedirectCacheRepository, 'invalidate'>;
  /** The rows behind previews, in process: the deleted one is dropped. */
  previews: Pick<PreviewCacheRepository, 'evict'>;
  /** A deleted entry's pending visits go with it. */
  pendingVisits: Pick<PendingVisitsRepository, 'discard'>;
}

/** DELETE /:code and its alias POST /delete (docs/api.md). */
export class DeleteShortUrlService {
  constructor(private readonly deps: DeleteShortUrlDeps) {}

  async delete(code: string, managementCode: string): Promise<void> {
    const entry = authorisedEntry(await this.deps.repository.findByCode(code), managementCode);
    const deleted = await this.deps.repository.delete(entry.pos);
    if (!deleted) throw new ApiError('SHORT_URL_NOT_FOUND');
    this.deps.previews.evict(entry.code);
    await this.deps.cache.invalidate(entry.code, 'deleted');
    // The repository deleted its days; visits still on their way are dropped when they reach MySQL
    // (no entry has the code), unless the code is taken again first: clear what Redis holds now.
    await this.deps.pendingVisits.discard(entry.code).catch(() => undefined);
  }
}
