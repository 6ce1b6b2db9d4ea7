// In-memory stand-ins for the short-url services' repositories, shared by their specs (`src/services/*.service.spec.ts`).
import { expect } from 'vitest';
import type { ShortUrl } from '../src/db/entities/short-url.entity.js';
import type { CachedLink } from '../src/repositories/redirect-cache.repository.js';
import type {
  NewShortUrl,
  OwnerPageQuery,
  ShortUrlChanges,
  WriteOutcome,
} from '../src/repositories/short-url.repository.js';
import { BulkCreateShortUrlsService } from '../src/services/bulk-create-short-urls.service.js';
import { CreateShortUrlService } from '../src/services/create-short-url.service.js';
import { DeleteShortUrlService } from '../src/services/delete-short-url.service.js';
import { ListShortUrlsService } from '../src/services/list-short-urls.service.js';
import { PreviewShortUrlService } from '../src/services/preview-short-url.service.js';
import { RedirectShortUrlService } from '../src/services/redirect-short-url.service.js';
import { UpdateShortUrlService } from '../src/services/update-short-url.service.js';

/** short_urls in memory, with the unique indexes the database has: code, and url among entries without a management code. */
export class MemoryShortUrls {
  readonly rows: ShortUrl[] = [];
  private nextPos = 1;

  findByCode(code: string): Promise<ShortUrl | null> {
    return Promise.resolve(this.rows.find((r) => r.code === code) ?? null);
  }

  /** One store: the reader is the writer. */
  findByCodeLagTolerant(code: string): Promise<ShortUrl | null> {
    return this.findByCode(code);
  }

  findSharedByUrl(url: string): Promise<ShortUrl | null> {
    return Promise.resolve(this.rows.find((r) => r.sharedUrlHash !== null && r.url === url) ?? null);
  }

  insert({ tags: _tags, ...entry }: NewShortUrl): Promise<WriteOutcome<ShortUrl>> {
    if (this.rows.some((r) => r.code === entry.code)) return Promise.resolve({ ok: false, conflict: 'code' });
    const shared = entry.managementCodeHash === null && entry.expiresAt === null && entry.maxVisits === null;
    if (shared && this.rows.some((r) => r.sharedUrlHash !== null && r.url === entry.url))
      return Promise.resolve({ ok: false, conflict: 'url' });
    const row: ShortUrl = {
      ...entry,
      ownerKeyId: entry.ownerKeyId ?? null,
      passwordHash: entry.passwordHash ?? null,
      rules: entry.rules ?? null,
      pos: this.nextPos++,
      sharedUrlHash: shared ? Buffer.from(entry.url) : null,
      modifiedAt: null,
      urlChangedAt: null,
      maxVisitsUsed: 0,
      maxVisitsReachedAt: null,
    };
    this.rows.push(row);
    return Promise.resolve({ ok: true, value: row });
  }

  /** The keyset query of the database: the owner's rows after `after` in (createdAt, pos) descending order. */
  listByOwner({ ownerKeyId, limit, after, contains }: OwnerPageQuery): Promise<ShortUrl[]> {
    const newestFirst = (a: ShortUrl, b: ShortUrl): number =>
      b.createdAt.getTime() - a.createdAt.getTime() || b.pos - a.pos;
    const isAfter = (r: ShortUrl): boolean =>
      !after ||
      r.createdAt.getTime() < after.createdAt.getTime() ||
      (r.createdAt.getTime() === after.createdAt.getTime() && r.pos < after.pos);
    const matches = (r: ShortUrl): boolean =>
      contains === undefined ||
      [r.code, r.url, r.credit].some((field) => field.toLowerCase().includes(contains.toLowerCase()));
    return Promise.resolve(
      this.rows
        .filter((r) => r.ownerKeyId === ownerKeyId && isAfter(r) && matches(r))
        .sort(newestFirst)
        .slice(0, limit),
    );
  }

  update(pos: number, changes: ShortUrlChanges): Promise<boolean> {
    const row = this.rows.find((r) => r.pos === pos);
    if (row) Object.assign(row, changes);
    return Promise.resolve(row !== undefined);
  }

  delete(pos: number): Promise<boolean> {
    const index = this.rows.findIndex((r) => r.pos === pos);
    if (index >= 0) this.rows.splice(index, 1);
    return Promise.resolve(index >= 0);
  }

  /** The conditional UPDATE of the database: admitted while below the limit and before expiresAt. */
  admitVisit(code: string, now: Date): Promise<boolean> {
    const row = this.rows.find((r) => r.code === code);
    if (
      !row ||
      row.maxVisits === null ||
      row.maxVisitsUsed >= row.maxVisits ||
      (row.expiresAt !== null && row.expiresAt <= now)
    )
      return Promise.resolve(false);
    row.maxVisitsUsed++;
    if (row.maxVisitsUsed >= row.maxVisits) row.maxVisitsReachedAt = now;
    return Promise.resolve(true);
  }
}

/** The redirect cache as a log of what the services told it; `warm` codes are held in memory. */
export class RecordingCache {
  readonly calls: string[] = [];
  readonly warm = new Map<string, CachedLink>();
  /** Moves when a test drops something from memory. */
  generation = 0;
  /** What `fetch` answers (Redis and MySQL behind memory), when set. */
  source: ((code: string) => Promise<CachedLink | null>) | undefined;
  peek(code: string): CachedLink | undefined {
    this.calls.push(`peek ${code}`);
    return this.warm.get(code);
  }
  fetch(code: string): Promise<CachedLink | null> {
    this.calls.push(`fetch ${code}`);
    return this.source ? this.source(code) : Promise.resolve(null);
  }
  put(code: string, link: CachedLink): Promise<void> {
    this.calls.push(`put ${code} ${link.url}`);
    return Promise.resolve();
  }
  invalidate(code: string, change: 'edited' | 'deleted' | 'credited'): Promise<void> {
    this.calls.push(`${change} ${code}`);
    return Promise.resolve();
  }
}

/** The preview cache, logging into the redirect cache's list so the order of what a service did shows. */
export class RecordingPreviews {
  readonly held = new Set<string>();
  constructor(
    private readonly calls: string[],
    private readonly rows: MemoryShortUrls,
  ) {}
  has(code: string): boolean {
    return this.held.has(code);
  }
  get(code: string): Promise<ShortUrl | null> {
    this.calls.push(`preview ${code}`);
    return this.rows.findByCode(code);
  }
  evict(code: string): void {
    this.calls.push(`drop preview ${code}`);
  }
}

export const NOW = new Date('2026-11-23T12:00:00.000Z');

/** Every short-url service over one set of fakes. */
export function setup(options: { generateCode?: () => string } = {}) {
  const repository = new MemoryShortUrls();
  const cache = new RecordingCache();
  const previews = new RecordingPreviews(cache.calls, repository);
  const counted: string[] = [];
  /** What the tally was given for each counted visit: code, raw referrer host, user agent, address. */
  const tallied: Array<Array<string | undefined>> = [];
  const totals = new Map<string, number>();
  const visitStats = {
    total: (code: string) => Promise.resolve(totals.get(code) ?? 0),
    previewTotal: (code: string) => Promise.resolve(totals.get(code) ?? 0),
  };
  const pendingVisits = {
    discard: (code: string) => {
      cache.calls.push(`discard visits ${code}`);
      return Promise.resolve();
    },
  };
  const common = { baseUrl: 'https://pawl.ink', clock: () => NOW };
  // The specs give no tags: the HTTP tests hold tags against the database.
  const tags = { tagsOf: () => Promise.resolve([]), tagsOfEach: () => Promise.resolve(new Map<number, string[]>()) };
  const create = new CreateShortUrlService({ repository, cache, ...common, ...options });
  return {
    repository,
    cache,
    previews,
    counted,
    tallied,
    totals,
    create,
    bulk: new BulkCreateShortUrlsService({ createShortUrl: create }),
    list: new ListShortUrlsService({ repository, tags, visitStats, baseUrl: common.baseUrl }),
    update: new UpdateShortUrlService({ repository, tags, cache, previews, visitStats, ...common }),
    remove: new DeleteShortUrlService({ repository, cache, previews, pendingVisits }),
    preview: new PreviewShortUrlService({ previews, visitStats, ...common }),
    redirect: new RedirectShortUrlService({
      cache,
      repository,
      tally: {
        add: (code, ...source) => {
          counted.push(code);
          tallied.push([code, ...source]);
        },
      },
      breakdown: true,
      ...common,
    }),
  };
}

/** An editable entry made through the create service, with the cache's log emptied. */
export async function editableEntry() {
  const ctx = setup();
  const created = await ctx.create.create({ url: 'https://example.com/h', credit: 'Fox', editable: true });
  ctx.cache.calls.length = 0;
  return { ...ctx, code: created.record.code, managementCode: created.managementCode! };
}

export const expectCode = async (promise: Promise<unknown>, code: number): Promise<void> => {
  await expect(promise).rejects.toMatchObject({ code });
};
