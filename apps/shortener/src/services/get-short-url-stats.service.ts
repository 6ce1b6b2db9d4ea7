import type { ShortUrlStats } from '@pawlink/contracts';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import type { VisitStatsService } from './visit-stats.service.js';

export interface GetShortUrlStatsDeps {
  repository: Pick<ShortUrlRepository, 'findByCodeLagTolerant'>;
  visitStats: Pick<VisitStatsService, 'stats'>;
}

/** GET /:code/stats (docs/api.md). */
export class GetShortUrlStatsService {
  constructor(private readonly deps: GetShortUrlStatsDeps) {}

  /**
   * Counted visits of `code`: the total, the last 90 UTC days and where those days' visits came
   * from (expired links included); null when no entry has it.
   */
  async stats(code: string): Promise<ShortUrlStats | null> {
    const entry = await this.deps.repository.findByCodeLagTolerant(code);
    if (!entry) return null;
    return { code: entry.code, ...(await this.deps.visitStats.stats(entry.code, entry.pos)) };
  }
}
