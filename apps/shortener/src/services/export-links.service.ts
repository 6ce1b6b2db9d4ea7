import type { ExportRecord } from '../domain/links-export.rules.js';
import type { ExportPosition, LinkExportRepository } from '../repositories/link-export.repository.js';

/** Entries read per query: memory holds one page, whatever the key has. */
export const EXPORT_PAGE = 500;

export interface ExportLinksDeps {
  repository: Pick<LinkExportRepository, 'page' | 'daysOf'>;
}

/** GET /links/export (docs/api.md): every entry of a key, oldest first, page after page. */
export class ExportLinksService {
  constructor(private readonly deps: ExportLinksDeps) {}

  /**
   * The key's entries as export records, one page at a time (the caller writes a page before the
   * next is read, so a slow client holds the reading back); `withDays` adds each entry's UTC days.
   */
  async *pages(owner: number, withDays: boolean): AsyncGenerator<ExportRecord[]> {
    let after: ExportPosition | null = null;
    for (;;) {
      const page = await this.deps.repository.page(owner, after, EXPORT_PAGE);
      if (page.length === 0) return;
      const days = withDays ? await this.deps.repository.daysOf(page.map((e) => e.pos)) : null;
      yield page.map((entry) => ({
        url: entry.url,
        code: entry.code,
        credit: entry.credit,
        createdAt: entry.createdAt.toISOString(),
        tags: entry.tags,
        expiresAt: entry.expiresAt === null ? null : entry.expiresAt.toISOString(),
        maxVisits: entry.maxVisits,
        visits: entry.visits,
        ...(days === null ? {} : { days: Object.fromEntries(days.get(entry.pos) ?? []) }),
      }));
      if (page.length < EXPORT_PAGE) return;
      const last = page[page.length - 1]!;
      after = { createdAt: last.createdAt, pos: last.pos };
    }
  }
}
