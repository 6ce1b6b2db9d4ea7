import { verifyManagementCode, generateManagementCode, hashManagementCode } from '@pawlink/auth';
import type { ShortUrlRecord } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { RedirectCache } from '../redirect-cache.js';
import type { ShortUrl } from '../short-url.entity.js';
import type { ShortUrlRepository } from '../short-url.repository.js';
import { isReservedCode } from '../shortener.policy.js';
import { parseCredit } from './credit.js';
import { isWellFormedCode, parseCustomCode, randomCode } from './short-code.js';
import { normaliseTargetUrl } from './target-url.js';

/** Random codes collide with odds ~n/62⁸; a handful of retries is plenty. */
const RANDOM_CODE_ATTEMPTS = 8;

export interface CreateInput {
  url: unknown;
  code: unknown;
  credit: unknown;
  editable: boolean;
}

export interface CreateResult {
  /** False when the url already had a shared entry (which is returned instead). */
  created: boolean;
  record: ShortUrlRecord;
  managementCode: string | null;
}

export interface UpdateInput {
  managementCode: unknown;
  url?: unknown;
  credit?: unknown;
}

export interface ShortUrlServiceDeps {
  repository: ShortUrlRepository;
  cache: RedirectCache;
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

  /** The entry behind a code; null for unknown and for strings that cannot be codes. */
  find(code: string): Promise<ShortUrl | null> {
    return isWellFormedCode(code) ? this.deps.repository.findByCode(code) : Promise.resolve(null);
  }

  /** Target of a redirect, from the caches when warm. */
  resolve(code: string): Promise<string | null> {
    return isWellFormedCode(code) ? this.deps.cache.get(code) : Promise.resolve(null);
  }

  /**
   * A new entry; with `editable` false, the existing entry nobody can change for the same url when
   * there is one (shared, race-safe: the unique index decides). An editable entry is never shared,
   * so an editable create always makes an entry of its own.
   */
  async create(input: CreateInput): Promise<CreateResult> {
    const customCode = parseCustomCode(input.code);
    const url = normaliseTargetUrl(input.url);
    const credit = parseCredit(input.credit);
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
  private async authorise(code: string, presented: unknown): Promise<ShortUrl> {
    if (typeof presented !== 'string' || presented === '') throw new ApiError('MANAGEMENT_CODE_REQUIRED');
    const entry = await this.find(code);
    if (!entry) throw new ApiError('SHORT_URL_NOT_FOUND');
    if (entry.managementCodeHash === null) throw new ApiError('NO_MANAGEMENT_CODE');
    if (!verifyManagementCode(presented, entry.managementCodeHash)) throw new ApiError('MANAGEMENT_CODE_MISMATCH');
    return entry;
  }

  async update(code: string, input: UpdateInput): Promise<ShortUrlRecord> {
    const entry = await this.authorise(code, input.managementCode);
    const url = input.url === undefined ? undefined : normaliseTargetUrl(input.url);
    const credit = input.credit === undefined ? undefined : parseCredit(input.credit);
    const changes: { url?: string; credit?: string } = {};
    if (url !== undefined && url !== entry.url) changes.url = url;
    if (credit !== undefined && credit !== entry.credit) changes.credit = credit;
    if (changes.url === undefined && changes.credit === undefined) throw new ApiError('NO_CHANGES');

    const modifiedAt = this.deps.clock();
    // modifiedAt follows any edit; urlChangedAt only a new destination (the preview warns about those).
    const updated = await this.deps.repository.update(entry.pos, changes.url === undefined ? { ...changes, modifiedAt } : { ...changes, modifiedAt, urlChangedAt: modifiedAt });
    if (!updated) throw new ApiError('SHORT_URL_NOT_FOUND');
    if (changes.url !== undefined) await this.deps.cache.invalidate(entry.code, 'edited');
    return this.toRecord({ ...entry, ...changes, modifiedAt });
  }

  async remove(code: string, managementCode: unknown): Promise<void> {
    const entry = await this.authorise(code, managementCode);
    const deleted = await this.deps.repository.delete(entry.pos);
    if (!deleted) throw new ApiError('SHORT_URL_NOT_FOUND');
    await this.deps.cache.invalidate(entry.code, 'deleted');
  }
}
