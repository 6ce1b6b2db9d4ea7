import { hashManagementCode } from '@pawlink/auth';
import { describe, expect, it } from 'vitest';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import type { CachedLink } from '../repositories/redirect-cache.repository.js';
import type { NewShortUrl, ShortUrlChanges, WriteOutcome } from '../repositories/short-url.repository.js';
import { ShortUrlService, type ShortUrlServiceDeps } from './short-url.service.js';

/** short_urls in memory, with the unique indexes the database has: code, and url among entries without a management code. */
class MemoryShortUrls {
  readonly rows: ShortUrl[] = [];
  private nextPos = 1;

  findByCode(code: string): Promise<ShortUrl | null> {
    return Promise.resolve(this.rows.find((r) => r.code === code) ?? null);
  }

  findSharedByUrl(url: string): Promise<ShortUrl | null> {
    return Promise.resolve(this.rows.find((r) => r.sharedUrlHash !== null && r.url === url) ?? null);
  }

  insert(entry: NewShortUrl): Promise<WriteOutcome<ShortUrl>> {
    if (this.rows.some((r) => r.code === entry.code)) return Promise.resolve({ ok: false, conflict: 'code' });
    const shared = entry.managementCodeHash === null && entry.expiresAt === null && entry.maxVisits === null;
    if (shared && this.rows.some((r) => r.sharedUrlHash !== null && r.url === entry.url)) return Promise.resolve({ ok: false, conflict: 'url' });
    const row: ShortUrl = { ...entry, pos: this.nextPos++, sharedUrlHash: shared ? Buffer.from(entry.url) : null, modifiedAt: null, urlChangedAt: null, maxVisitsUsed: 0, maxVisitsReachedAt: null };
    this.rows.push(row);
    return Promise.resolve({ ok: true, value: row });
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
    if (!row || row.maxVisits === null || row.maxVisitsUsed >= row.maxVisits || (row.expiresAt !== null && row.expiresAt <= now)) return Promise.resolve(false);
    row.maxVisitsUsed++;
    if (row.maxVisitsUsed >= row.maxVisits) row.maxVisitsReachedAt = now;
    return Promise.resolve(true);
  }
}

/** The redirect cache as a log of what the service told it; `warm` codes are held in memory. */
class RecordingCache {
  readonly calls: string[] = [];
  readonly warm = new Map<string, CachedLink>();
  /** What `get` answers (MySQL behind the caches), when set. */
  source: ((code: string) => Promise<CachedLink | null>) | undefined;
  peek(code: string): CachedLink | undefined {
    return this.warm.get(code);
  }
  get(code: string): Promise<CachedLink | null> {
    this.calls.push(`get ${code}`);
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

/** The preview cache, logging into the redirect cache's list so the order of what the service did shows. */
class RecordingPreviews {
  readonly held = new Set<string>();
  constructor(private readonly calls: string[], private readonly rows: MemoryShortUrls) {}
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

const NOW = new Date('2026-11-23T12:00:00.000Z');

function setup(overrides: Partial<ShortUrlServiceDeps> = {}) {
  const repository = new MemoryShortUrls();
  const cache = new RecordingCache();
  const previews = new RecordingPreviews(cache.calls, repository);
  const counted: string[] = [];
  const totals = new Map<string, number>();
  const service = new ShortUrlService({
    repository,
    cache,
    previews,
    tally: { add: (code) => void counted.push(code) },
    visitStats: {
      total: (code) => Promise.resolve(totals.get(code) ?? 0),
      previewTotal: (code) => Promise.resolve(totals.get(code) ?? 0),
      stats: (code) => Promise.resolve({ visits: totals.get(code) ?? 0, days: [] }),
    },
    pendingVisits: {
      discard: (code) => {
        cache.calls.push(`discard visits ${code}`);
        return Promise.resolve();
      },
    },
    baseUrl: 'https://pawl.ink',
    clock: () => NOW,
    ...overrides,
  });
  return { repository, cache, previews, service, counted, totals };
}

const expectCode = async (promise: Promise<unknown>, code: number): Promise<void> => {
  await expect(promise).rejects.toMatchObject({ code });
};

describe('ShortUrlService.create', () => {
  it('makes an editable entry with a management code stored only as its hash, and warms the cache', async () => {
    const { repository, cache, service } = setup();
    const result = await service.create({ url: 'https://example.com/a', editable: true });
    expect(result).toMatchObject({ created: true, record: { url: 'https://example.com/a', credit: 'Unknown', pos: 1, fullURL: `https://pawl.ink/${result.record.code}` } });
    expect(result.managementCode).toEqual(expect.any(String));
    expect(repository.rows[0]!.managementCodeHash).toBe(hashManagementCode(result.managementCode!));
    expect(cache.calls).toEqual([`put ${result.record.code} https://example.com/a`]);
  });

  it('hands a non-editable create the url\'s existing non-editable entry, never an editable one', async () => {
    const { service } = setup();
    const editable = await service.create({ url: 'https://example.com/b', editable: true });
    const fixed = await service.create({ url: 'https://example.com/b', editable: false });
    expect(fixed.created).toBe(true);
    expect(fixed.record.code).not.toBe(editable.record.code);
    const again = await service.create({ url: 'https://example.com/b', editable: false, code: 'other' });
    expect(again).toEqual({ created: false, record: fixed.record, managementCode: null });
    const ownAgain = await service.create({ url: 'https://example.com/b', editable: true });
    expect(ownAgain.created).toBe(true);
  });

  it('answers a lost url race with the winner', async () => {
    const { repository, service } = setup();
    const winner = await service.create({ url: 'https://example.com/c', editable: false });
    // As if the winner's insert landed after this create's lookup.
    repository.findSharedByUrl = (() => {
      let first = true;
      const original = MemoryShortUrls.prototype.findSharedByUrl.bind(repository);
      return (url: string) => (first ? ((first = false), Promise.resolve(null)) : original(url));
    })();
    expect(await service.create({ url: 'https://example.com/c', editable: false })).toEqual({ created: false, record: winner.record, managementCode: null });
  });

  it('refuses a reserved or taken custom code with 1072', async () => {
    const { service } = setup();
    await expectCode(service.create({ url: 'https://example.com/d', code: 'Create', editable: true }), 1072);
    await service.create({ url: 'https://example.com/d', code: 'mine', editable: true });
    await expectCode(service.create({ url: 'https://example.com/e', code: 'mine', editable: true }), 1072);
  });

  it('draws another random code after a collision or a reserved word', async () => {
    const script = ['taken-1', 'online', 'Fresh123'];
    const { service } = setup({ generateCode: () => script.shift() ?? 'unused' });
    await service.create({ url: 'https://example.com/f', code: 'taken-1', editable: true });
    const result = await service.create({ url: 'https://example.com/g', editable: true });
    expect(result.record.code).toBe('Fresh123');
  });
});

describe('ShortUrlService.update and remove', () => {
  async function editableEntry() {
    const ctx = setup();
    const created = await ctx.service.create({ url: 'https://example.com/h', credit: 'Fox', editable: true });
    ctx.cache.calls.length = 0;
    return { ...ctx, code: created.record.code, managementCode: created.managementCode! };
  }

  it('refuses unknown codes (1075), entries without a management code (1077) and wrong codes (1078)', async () => {
    const { service, code } = await editableEntry();
    await expectCode(service.update('nope', { managementCode: 'x', credit: 'y' }), 1075);
    const fixed = await service.create({ url: 'https://example.com/fixed', editable: false });
    await expectCode(service.update(fixed.record.code, { managementCode: 'x', credit: 'y' }), 1077);
    await expectCode(service.remove(code, 'not-it'), 1078);
  });

  it('answers 1080 when nothing would change', async () => {
    const { service, code, managementCode } = await editableEntry();
    await expectCode(service.update(code, { managementCode }), 1080);
    await expectCode(service.update(code, { managementCode, url: 'https://example.com/h', credit: 'Fox' }), 1080);
  });

  it('moves the destination: modifiedAt and urlChangedAt set, every instance told', async () => {
    const { service, repository, cache, code, managementCode } = await editableEntry();
    const record = await service.update(code, { managementCode, url: 'https://example.com/new' });
    expect(record).toMatchObject({ url: 'https://example.com/new', modifiedAt: NOW.toISOString() });
    expect(repository.rows[0]).toMatchObject({ urlChangedAt: NOW });
    expect(cache.calls).toEqual([`drop preview ${code}`, `edited ${code}`]);
  });

  it('changes only the credit: no destination notice, announced as a credit change (the redirect stays cached)', async () => {
    const { service, repository, cache, code, managementCode } = await editableEntry();
    await service.update(code, { managementCode, credit: 'Wolf' });
    expect(repository.rows[0]).toMatchObject({ credit: 'Wolf', urlChangedAt: null, modifiedAt: NOW });
    expect(cache.calls).toEqual([`drop preview ${code}`, `credited ${code}`]);
  });

  it('deletes and marks the code deleted in the cache', async () => {
    const { service, repository, cache, code, managementCode } = await editableEntry();
    await service.remove(code, managementCode);
    expect(repository.rows).toHaveLength(0);
    expect(cache.calls).toEqual([`drop preview ${code}`, `deleted ${code}`, `discard visits ${code}`]);
  });
});

describe('ShortUrlService lookups', () => {
  it('reads previews through the preview cache', async () => {
    const { service, cache } = setup();
    const created = await service.create({ url: 'https://example.com/p', credit: 'Otter', editable: true });
    cache.calls.length = 0;
    const preview = await service.preview(created.record.code);
    expect(preview.kind === 'preview' && preview.preview.record).toMatchObject({ url: 'https://example.com/p', credit: 'Otter' });
    expect(await service.preview('missing')).toEqual({ kind: 'unknown' });
    expect(cache.calls).toEqual([`preview ${created.record.code}`, 'preview missing']);
  });

  it('needs a lookup only for a well-formed code that is not held in memory', () => {
    const { service, cache, previews } = setup();
    cache.warm.set('warm', { url: 'https://example.com/w', expiresAt: null, limited: false });
    previews.held.add('shown');
    expect(service.redirectNeedsLookup('cold')).toBe(true);
    expect(service.redirectNeedsLookup('warm')).toBe(false);
    cache.warm.set('limited', { url: 'https://example.com/l', expiresAt: null, limited: true });
    cache.warm.set('expired', { url: 'https://example.com/e', expiresAt: NOW.getTime(), limited: false });
    cache.warm.set('later', { url: 'https://example.com/e', expiresAt: NOW.getTime() + 1, limited: false });
    expect(service.redirectNeedsLookup('limited')).toBe(true);
    expect(service.redirectNeedsLookup('expired')).toBe(true);
    expect(service.redirectNeedsLookup('later')).toBe(false);
    expect(service.redirectNeedsLookup('no/such%code')).toBe(false);
    expect(service.redirectNeedsLookup('x'.repeat(51))).toBe(false);
    expect(service.previewNeedsLookup('cold')).toBe(true);
    expect(service.previewNeedsLookup('shown')).toBe(false);
    expect(service.previewNeedsLookup('bad code')).toBe(false);
  });
});
