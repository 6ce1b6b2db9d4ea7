import type { ListShortUrlsResponse, ShortUrlWithVisits } from '@pawlink/contracts';
import type { OwnerPosition, ShortUrlRepository } from '../repositories/short-url.repository.js';
import type { ShortUrlTagsRepository } from '../repositories/short-url-tags.repository.js';
import { encodeLinksCursor } from '../domain/links-cursor.rules.js';
import { toRecord } from '../domain/short-url-record.rules.js';
import type { VisitStatsService } from './visit-stats.service.js';

export interface ListShortUrlsDeps {
  repository: Pick<ShortUrlRepository, 'listByOwner'>;
  tags: Pick<ShortUrlTagsRepository, 'tagsOfEach'>;
  visitStats: Pick<VisitStatsService, 'total'>;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
}

/** One page request of `GET /links`, as validation hands it over. */
export interface ListShortUrls {
  /** The presenting key: only its entries are listed. */
  ownerKeyId: number;
  /** 1–100. */
  limit: number;
  /** From the previous page's `next`; the newest entries when absent. */
  after?: OwnerPosition;
  /** Case-insensitive substring of code, url or credit. */
  q?: string;
  /** Only entries carrying every one of these. */
  tags?: string[];
}

/** GET /links (docs/api.md): the entries a key created, newest first, expired ones included. */
export class ListShortUrlsService {
  constructor(private readonly deps: ListShortUrlsDeps) {}

  async list(input: ListShortUrls): Promise<ListShortUrlsResponse['data']> {
    // One row more than the page tells whether another page follows, without counting.
    const rows = await this.deps.repository.listByOwner({
      ownerKeyId: input.ownerKeyId,
      limit: input.limit + 1,
      ...(input.after ? { after: input.after } : {}),
      ...(input.q !== undefined ? { contains: input.q } : {}),
      ...(input.tags !== undefined ? { tags: input.tags } : {}),
    });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    const next = rows.length > input.limit && last ? encodeLinksCursor(last) : null;
    const tags = await this.deps.tags.tagsOfEach(page.map((entry) => entry.pos));
    const links = await Promise.all(
      page.map(async (entry): Promise<ShortUrlWithVisits> => ({
        ...toRecord(entry, this.deps.baseUrl, tags.get(entry.pos) ?? []),
        visits: await this.deps.visitStats.total(entry.code, entry.pos),
      })),
    );
    return { links, next };
  }
}
