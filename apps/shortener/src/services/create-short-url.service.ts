import { generateManagementCode, hashManagementCode } from '@pawlink/auth';
import { DEFAULT_CREDIT, type ShortUrlRecord } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import type { RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import { hashLinkPassword } from '../domain/link-password.rules.js';
import type { RedirectRule } from '../domain/redirect-rules.rules.js';
import { randomCode } from '../domain/short-code.rules.js';
import { linkOf, toRecord } from '../domain/short-url-record.rules.js';
import { isReservedCode } from '../domain/shortener.policy.js';

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
  /** Checked to be in the future; null or absent: no date. */
  expiresAt?: Date | null;
  /** null or absent: unlimited. */
  maxVisits?: number | null;
  /** The API key creating the entry, recorded as its owner (`GET /links`); null or absent: none. */
  ownerKeyId?: number | null;
  /** Checked and lower-cased; absent or empty: none. A tagged entry is never shared. */
  tags?: string[];
  /** The link's password (checked, 8–128 characters), stored as a scrypt hash; null or absent: none. */
  password?: string | null;
  /** Checked redirect rules; absent or empty: none. A link with rules is never shared. */
  rules?: RedirectRule[];
}

export interface CreateResult {
  /** False when a non-editable create found the url's shared entry (which is returned instead). */
  created: boolean;
  record: ShortUrlRecord;
  managementCode: string | null;
}

export interface CreateShortUrlDeps {
  repository: Pick<ShortUrlRepository, 'findSharedByUrl' | 'insert'>;
  /** Warmed with each new entry, so its first redirect is answered from memory. */
  cache: Pick<RedirectCacheRepository, 'put'>;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
  clock: () => Date;
  /** Source of random codes; the CSPRNG one unless a test needs collisions. */
  generateCode?: () => string;
}

/** POST /create (docs/api.md). */
export class CreateShortUrlService {
  constructor(private readonly deps: CreateShortUrlDeps) {}

  /**
   * A new entry; with `editable` false, the existing entry nobody can change for the same url when
   * there is one (shared, race-safe: the unique index decides). Editable entries and entries that
   * expire (expiresAt or maxVisits) are never shared: each such create makes an entry of its own,
   * and a plain create never gets one of them (nobody else's limits cut off a link one was given).
   */
  async create(input: CreateShortUrl): Promise<CreateResult> {
    const { url, code: customCode } = input;
    const credit = input.credit ?? DEFAULT_CREDIT;
    const expiresAt = input.expiresAt ?? null;
    const maxVisits = input.maxVisits ?? null;
    const tags = input.tags ?? [];
    const password = input.password ?? null;
    const rules = input.rules !== undefined && input.rules.length > 0 ? JSON.stringify(input.rules) : null;
    const shared =
      !input.editable &&
      expiresAt === null &&
      maxVisits === null &&
      tags.length === 0 &&
      password === null &&
      rules === null;

    // Not a uniqueness check (the index is): it spares an insert, and a sequence number, per repeat.
    if (shared) {
      const existing = await this.deps.repository.findSharedByUrl(url);
      if (existing) return this.existing(existing);
    }
    if (customCode !== undefined && isReservedCode(customCode)) throw new ApiError('CODE_IN_USE');

    const managementCode = input.editable ? generateManagementCode() : null;
    const managementCodeHash = managementCode === null ? null : hashManagementCode(managementCode);
    const passwordHash = password === null ? null : await hashLinkPassword(password);
    for (let attempt = 1; attempt <= RANDOM_CODE_ATTEMPTS; attempt++) {
      const code = customCode ?? (this.deps.generateCode ?? randomCode)();
      if (customCode === undefined && isReservedCode(code)) continue;
      const outcome = await this.deps.repository.insert({
        code,
        url,
        credit,
        managementCodeHash,
        createdAt: this.deps.clock(),
        expiresAt,
        maxVisits,
        ownerKeyId: input.ownerKeyId ?? null,
        tags,
        passwordHash,
        rules,
      });
      if (outcome.ok) {
        await this.deps.cache.put(code, linkOf(outcome.value));
        return { created: true, record: toRecord(outcome.value, this.deps.baseUrl, tags), managementCode };
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
    // A shared entry never has tags.
    return { created: false, record: toRecord(entry, this.deps.baseUrl, []), managementCode: null };
  }
}
