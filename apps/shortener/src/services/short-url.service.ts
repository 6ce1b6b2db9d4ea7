import { generateManagementCode, hashManagementCode, verifyManagementCode } from '@pawlink/auth';
import { DEFAULT_CREDIT, type ShortUrlRecord } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import type { PreviewCacheRepository } from '../repositories/preview-cache.repository.js';
import type { RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import { isWellFormedCode, randomCode } from './short-code.rules.js';
import { isReservedCode } from './shortener.policy.js';

/** Random codes collide with odds ~n/62⁸; a handful of retries is plenty. */
const RANDOM_CODE_ATTEMPTS = 8;

/** A create as validation hands it over: the url normalised, the code and credit checked. */
export interface CreateShortUrl {
  url: string;
  /** A custom code; a random one when absent. */
  code?: string;
  /** "Unknown" when absent. */
  credit?: string;
  editable: boolean;
}

export interface CreateResult {
  /** False when a non-editable create found the url's shared entry (which is returned instead). */
  created: boolean;
  record: ShortUrlRecord;
  managementCode: string | null;
}

/** An edit: at least one of url and credit must differ from the entry (else 1080). */
export interface UpdateShortUrl {
  managementCode: string;
  url?: string;
  credit?: string;
}

/** What the preview page shows: the record, and when an edit last changed the destination. */
export interface ShortUrlPreview {
  record: ShortUrlRecord;
  urlChangedAt: string | null;
}

export interface ShortUrlServiceDeps {
  repository: Pick<ShortUrlRepository, 'findByCode' | 'findSharedByUrl' | 'insert' | 'update' | 'delete'>;
  cache: Pick<RedirectCacheRepository, 'peek' | 'get' | 'put' | 'invalidate'>;
  /** The rows behind previews, in process; dropped here on edits and deletes. */
  previews: Pick<PreviewCacheRepository, 'has' | 'get' | 'evict'>;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
  clock: () => Date;
  /** Source of random codes; the CSPRNG one unless a test needs collisions. */
  generateCode?: () => string;
}

/** The shortener's rules (API.md §2), with no HTTP in sight. */
export class ShortUrlService {
  constructor(private readonly deps: ShortUrlServiceDeps) {}

  toRecord(entry: ShortUrl): ShortUrlRecord {
    return {
      code: entry.code,
      createdAt: entry.createdAt.toISOString(),
      modifiedAt: entry.modifiedAt ? entry.modifiedAt.toISOString() : null,
      url: entry.url,
      pos: entry.pos,
      credit: entry.credit,
      fullURL: `${this.deps.baseUrl}/${entry.code}`,
    };
  }

  /** The record behind a code; null when no entry has it. */
  async record(code: string): Promise<ShortUrlRecord | null> {
    const entry = await this.deps.repository.findByCode(code);
    return entry ? this.toRecord(entry) : null;
  }

  /** What the preview page of `code` shows, from memory when it was shown before; null when no entry has the code. */
  async preview(code: string): Promise<ShortUrlPreview | null> {
    const entry = await this.deps.previews.get(code);
    return entry ? { record: this.toRecord(entry), urlChangedAt: entry.urlChangedAt?.toISOString() ?? null } : null;
  }

  /** Target of a redirect, from the caches when warm; null when no entry has the code. */
  resolve(code: string): Promise<string | null> {
    return this.deps.cache.get(code);
  }

  /**
   * Whether the redirect for the path segment `code` must ask Redis or MySQL: false for a
   * malformed code (unknown without a lookup) and for one this instance holds in memory.
   */
  redirectNeedsLookup(code: string): boolean {
    return isWellFormedCode(code) && this.deps.cache.peek(code) === undefined;
  }

  /** The same for the preview page of `code`. */
  previewNeedsLookup(code: string): boolean {
    return isWellFormedCode(code) && !this.deps.previews.has(code);
  }

  /**
   * A new entry; with `editable` false, the existing entry nobody can change for the same url when
   * there is one (shared, race-safe: the unique index decides). An editable entry is never shared,
   * so an editable create always makes an entry of its own.
   */
  async create(input: CreateShortUrl): Promise<CreateResult> {
    const { url, code: customCode } = input;
    const credit = input.credit ?? DEFAULT_CREDIT;
    const shared = !input.editable;

    // Not a uniqueness check (the index is): it spares an insert, and a sequence number, per repeat.
    if (shared) {
      const existing = await this.deps.repository.findSharedByUrl(url);
      if (existing) return this.existing(existing);
    }
    if (customCode !== undefined && isReservedCode(customCode)) throw new ApiError('CODE_IN_USE');

    const managementCode = shared ? null : generateManagementCode();
    const managementCodeHash = managementCode === null ? null : hashManagementCode(managementCode);
    for (let attempt = 1; attempt <= RANDOM_CODE_ATTEMPTS; attempt++) {
      const code = customCode ?? (this.deps.generateCode ?? randomCode)();
      if (customCode === undefined && isReservedCode(code)) continue;
      const outcome = await this.deps.repository.insert({ code, url, credit, managementCodeHash, createdAt: this.deps.clock() });
      if (outcome.ok) {
        await this.deps.cache.put(code, url);
        return { created: true, record: this.toRecord(outcome.value), managementCode };
      }
      if (outcome.conflict === 'url') {
        const winner = await this.deps.repository.findSharedByUrl(url);
        if (winner) return this.existing(winner);
        // The winner was deleted again in between; the url is free, so try once more.
        continue;
      }
      if (customCode !== undefined) {
        // The url may have been shared in the same race; an existing shared url answers 200 first.
        const winner = shared ? await this.deps.repository.findSharedByUrl(url) : null;
        if (winner) return this.existing(winner);
        throw new ApiError('CODE_IN_USE');
      }
    }
    throw new Error(`no free short code after ${RANDOM_CODE_ATTEMPTS} attempts`);
  }

  private existing(entry: ShortUrl): CreateResult {
    return { created: false, record: this.toRecord(entry), managementCode: null };
  }

  /** The entry behind `code` once the presented management code is proven right. */
  private async authorise(code: string, presented: string): Promise<ShortUrl> {
    const entry = await this.deps.repository.findByCode(code);
    if (!entry) throw new ApiError('SHORT_URL_NOT_FOUND');
    if (entry.managementCodeHash === null) throw new ApiError('NO_MANAGEMENT_CODE');
    if (!verifyManagementCode(presented, entry.managementCodeHash)) throw new ApiError('MANAGEMENT_CODE_MISMATCH');
    return entry;
  }

  async update(code: string, input: UpdateShortUrl): Promise<ShortUrlRecord> {
    const entry = await this.authorise(code, input.managementCode);
    const { url, credit } = input;
    const changes: { url?: string; credit?: string } = {};
    if (url !== undefined && url !== entry.url) changes.url = url;
    if (credit !== undefined && credit !== entry.credit) changes.credit = credit;
    if (changes.url === undefined && changes.credit === undefined) throw new ApiError('NO_CHANGES');

    const modifiedAt = this.deps.clock();
    // modifiedAt follows any edit; urlChangedAt only a new destination (the preview warns about those).
    const updated = await this.deps.repository.update(entry.pos, changes.url === undefined ? { ...changes, modifiedAt } : { ...changes, modifiedAt, urlChangedAt: modifiedAt });
    if (!updated) throw new ApiError('SHORT_URL_NOT_FOUND');
    this.deps.previews.evict(entry.code);
    await this.deps.cache.invalidate(entry.code, changes.url === undefined ? 'credited' : 'edited');
    return this.toRecord({ ...entry, ...changes, modifiedAt });
  }

  async remove(code: string, managementCode: string): Promise<void> {
    const entry = await this.authorise(code, managementCode);
    const deleted = await this.deps.repository.delete(entry.pos);
    if (!deleted) throw new ApiError('SHORT_URL_NOT_FOUND');
    this.deps.previews.evict(entry.code);
    await this.deps.cache.invalidate(entry.code, 'deleted');
  }
}
