import type { ShortUrlWithVisits } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import type { ShortUrlTagsRepository } from '../repositories/short-url-tags.repository.js';
import { expiryOf, type Expired } from '../domain/expiry.rules.js';
import { toRecord } from '../domain/short-url-record.rules.js';
import type { VisitStatsService } from './visit-stats.service.js';

export interface GetShortUrlDeps {
  repository: Pick<ShortUrlRepository, 'findByCodeLagTolerant'>;
  tags: Pick<ShortUrlTagsRepository, 'tagsOf'>;
  visitStats: Pick<VisitStatsService, 'total'>;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
  clock: () => Date;
}

/** 410 1083, saying why and since when. */
const expiredError = (expired: Expired): ApiError =>
  new ApiError('SHORT_URL_EXPIRED', {
    message:
      expired.reason === 'maxVisits'
        ? 'This short url has expired: it reached its maximum number of visits.'
        : 'This short url has expired.',
    extra: { expiredAt: expired.at.toISOString(), reason: expired.reason },
  });

/** GET /:code.json (docs/api.md). */
export class GetShortUrlService {
  constructor(private readonly deps: GetShortUrlDeps) {}

  /**
   * The record behind a code with its visits, as the key `askingKeyId` may see it (its tags, and
   * a protected link's target, only to its owner); null when no entry has it; 410 1083 when it expired.
   */
  async get(code: string, askingKeyId: number | null): Promise<ShortUrlWithVisits | null> {
    const entry = await this.deps.repository.findByCodeLagTolerant(code);
    if (!entry) return null;
    const expired = expiryOf(entry, this.deps.clock());
    if (expired) throw expiredError(expired);
    const owner = entry.ownerKeyId !== null && entry.ownerKeyId === askingKeyId;
    const tags = owner ? await this.deps.tags.tagsOf(entry.pos) : undefined;
    return {
      ...toRecord(entry, this.deps.baseUrl, tags, { hideTarget: !owner }),
      visits: await this.deps.visitStats.total(entry.code, entry.pos),
    };
  }
}
