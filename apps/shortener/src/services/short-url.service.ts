import { generateManagementCode, hashManagementCode, verifyManagementCode } from '@pawlink/auth';
import { DEFAULT_CREDIT, type ShortUrlRecord, type ShortUrlWithVisits, type VisitDay } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import type { PendingVisitsRepository } from '../repositories/pending-visits.repository.js';
import type { PreviewCacheRepository } from '../repositories/preview-cache.repository.js';
import type { CachedLink, RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { ShortUrlChanges, ShortUrlRepository } from '../repositories/short-url.repository.js';
import type { VisitTallyRepository } from '../repositories/visit-tally.repository.js';
import { expiryOf, type Expired } from './expiry.rules.js';
import { isWellFormedCode, randomCode } from './short-code.rules.js';
import { isReservedCode } from './shortener.policy.js';
import type { VisitStatsService } from './visit-stats.service.js';

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
}

export interface CreateResult {
  /** False when a non-editable create found the url's shared entry (which is returned instead). */
  created: boolean;
  record: ShortUrlRecord;
  managementCode: string | null;
}

/** An edit: at least one field must differ from the entry (else 1080); null clears expiresAt / maxVisits. */
export interface UpdateShortUrl {
  managementCode: string;
  url?: string;
  credit?: string;
  expiresAt?: Date | null;
  maxVisits?: number | null;
}

/** What the preview page shows: the record, when an edit last changed the destination, and the visits. */
export interface ShortUrlPreview {
  record: ShortUrlRecord;
  urlChangedAt: string | null;
  visits: number;
}

/** What an expired link's pages and 410 say. */
export interface ExpiredLink {
  code: string;
  fullURL: string;
  reason: Expired['reason'];
  /** ISO 8601. */
  expiredAt: string;
  maxVisits: number | null;
}

/** The answer to a visit of a public path. */
export type VisitOutcome = { kind: 'redirect'; url: string } | { kind: 'expired'; expired: ExpiredLink } | { kind: 'unknown' };

/** A preview, or why there is none. */
export type PreviewOutcome = { kind: 'preview'; preview: ShortUrlPreview } | { kind: 'expired'; expired: ExpiredLink } | { kind: 'unknown' };

export interface ShortUrlServiceDeps {
  repository: Pick<ShortUrlRepository, 'findByCode' | 'findSharedByUrl' | 'insert' | 'update' | 'delete' | 'admitVisit'>;
  cache: Pick<RedirectCacheRepository, 'peek' | 'get' | 'put' | 'invalidate'>;
  /** This instance's tally of counted visits. */
  tally: Pick<VisitTallyRepository, 'add'>;
  visitStats: Pick<VisitStatsService, 'total' | 'previewTotal' | 'stats'>;
  /** A deleted entry's pending visits go with it. */
  pendingVisits: Pick<PendingVisitsRepository, 'discard'>;
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
      expiresAt: entry.expiresAt ? entry.expiresAt.toISOString() : null,
      maxVisits: entry.maxVisits,
    };
  }

  private expiredLink(entry: ShortUrl, expired: Expired): ExpiredLink {
    return { code: entry.code, fullURL: `${this.deps.baseUrl}/${entry.code}`, reason: expired.reason, expiredAt: expired.at.toISOString(), maxVisits: entry.maxVisits };
  }

  /** 410 1083, saying why and since when. */
  private expiredError(entry: ShortUrl, expired: Expired): ApiError {
    return new ApiError('SHORT_URL_EXPIRED', {
      message: expired.reason === 'maxVisits' ? 'This short url has expired: it reached its maximum number of visits.' : 'This short url has expired.',
      extra: { expiredAt: expired.at.toISOString(), reason: expired.reason },
    });
  }

  /** The record behind a code with its visits; null when no entry has it; 410 1083 when it expired. */
  async record(code: string): Promise<ShortUrlWithVisits | null> {
    const entry = await this.deps.repository.findByCode(code);
    if (!entry) return null;
    const expired = expiryOf(entry, this.deps.clock());
    if (expired) throw this.expiredError(entry, expired);
    return { ...this.toRecord(entry), visits: await this.deps.visitStats.total(entry.code, entry.pos) };
  }

  /** Counted visits of `code`: the total and the last 90 UTC days (expired links included); null when no entry has it. */
  async stats(code: string): Promise<{ code: string; visits: number; days: VisitDay[] } | null> {
    const entry = await this.deps.repository.findByCode(code);
    if (!entry) return null;
    return { code: entry.code, ...(await this.deps.visitStats.stats(entry.code, entry.pos)) };
  }

  /**
   * What the preview page of `code` shows, from memory when it was shown before (`maxVisits`
   * entries are always read again: their count moves with every visit).
   */
  async preview(code: string): Promise<PreviewOutcome> {
    const entry = await this.deps.previews.get(code);
    if (!entry) return { kind: 'unknown' };
    const expired = expiryOf(entry, this.deps.clock());
    if (expired) return { kind: 'expired', expired: this.expiredLink(entry, expired) };
    const visits = await this.deps.visitStats.previewTotal(entry.code, entry.pos);
    return { kind: 'preview', preview: { record: this.toRecord(entry), urlChangedAt: entry.urlChangedAt?.toISOString() ?? null, visits } };
  }

  /**
   * A redirect that the fast path did not answer: resolved through the caches (which warms them).
   * `counted` says whether the request is a visit (`visits` and `maxVisits` count it): a GET that
   * is not a bot. A `maxVisits` link admits each counted visit against MySQL; uncounted requests
   * (bots, HEAD) are redirected without using one up while it has visits left.
   */
  async visit(code: string, counted: boolean): Promise<VisitOutcome> {
    const link = await this.deps.cache.get(code);
    if (link === null) return { kind: 'unknown' };
    const now = this.deps.clock();
    if (link.expiresAt !== null && link.expiresAt <= now.getTime()) return this.expiredOrUnknown(code, now);
    if (link.limited) {
      if (counted && (await this.deps.repository.admitVisit(code, now))) {
        this.deps.tally.add(code);
        return { kind: 'redirect', url: link.url };
      }
      // Refused or not counted: MySQL says whether it has visits left (or whether a late edit lifted the limit).
      const entry = await this.deps.repository.findByCode(code);
      if (!entry) return { kind: 'unknown' };
      const expired = expiryOf(entry, now);
      if (expired) return { kind: 'expired', expired: this.expiredLink(entry, expired) };
      if (counted && entry.maxVisits !== null && !(await this.deps.repository.admitVisit(code, now))) {
        // An edit raised the limit between the two reads and others used it up meanwhile.
        return { kind: 'expired', expired: this.expiredLink(entry, { reason: 'maxVisits', at: now }) };
      }
      if (counted) this.deps.tally.add(code);
      return { kind: 'redirect', url: entry.url };
    }
    if (counted) this.deps.tally.add(code);
    return { kind: 'redirect', url: link.url };
  }

  private async expiredOrUnknown(code: string, now: Date): Promise<VisitOutcome> {
    const entry = await this.deps.repository.findByCode(code);
    if (!entry) return { kind: 'unknown' };
    const expired = expiryOf(entry, now);
    // The cached date was moved by an edit not seen here yet: MySQL decides.
    if (!expired) return { kind: 'redirect', url: entry.url };
    return { kind: 'expired', expired: this.expiredLink(entry, expired) };
  }

  /**
   * Whether the redirect for the path segment `code` must ask Redis or MySQL: false for a
   * malformed code (unknown without a lookup) and for one this instance holds in memory, unless it
   * is a `maxVisits` link or past its `expiresAt` (both answers ask MySQL).
   */
  redirectNeedsLookup(code: string): boolean {
    if (!isWellFormedCode(code)) return false;
    const link = this.deps.cache.peek(code);
    return link === undefined || link.limited || (link.expiresAt !== null && link.expiresAt <= this.deps.clock().getTime());
  }

  /** The same for the preview page of `code`. */
  previewNeedsLookup(code: string): boolean {
    return isWellFormedCode(code) && !this.deps.previews.has(code);
  }

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
    const shared = !input.editable && expiresAt === null && maxVisits === null;

    // Not a uniqueness check (the index is): it spares an insert, and a sequence number, per repeat.
    if (shared) {
      const existing = await this.deps.repository.findSharedByUrl(url);
      if (existing) return this.existing(existing);
    }
    if (customCode !== undefined && isReservedCode(customCode)) throw new ApiError('CODE_IN_USE');

    const managementCode = input.editable ? generateManagementCode() : null;
    const managementCodeHash = managementCode === null ? null : hashManagementCode(managementCode);
    for (let attempt = 1; attempt <= RANDOM_CODE_ATTEMPTS; attempt++) {
      const code = customCode ?? (this.deps.generateCode ?? randomCode)();
      if (customCode === undefined && isReservedCode(code)) continue;
      const outcome = await this.deps.repository.insert({ code, url, credit, managementCodeHash, createdAt: this.deps.clock(), expiresAt, maxVisits });
      if (outcome.ok) {
        await this.deps.cache.put(code, linkOf(outcome.value));
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

  /** The changed record, with its visits like the JSON form. */
  async update(code: string, input: UpdateShortUrl): Promise<ShortUrlWithVisits> {
    const entry = await this.authorise(code, input.managementCode);
    const { url, credit, expiresAt, maxVisits } = input;
    const changes: Omit<ShortUrlChanges, 'modifiedAt'> = {};
    if (url !== undefined && url !== entry.url) changes.url = url;
    if (credit !== undefined && credit !== entry.credit) changes.credit = credit;
    if (expiresAt !== undefined && expiresAt?.getTime() !== entry.expiresAt?.getTime()) changes.expiresAt = expiresAt;
    if (maxVisits !== undefined && maxVisits !== entry.maxVisits) Object.assign(changes, await this.visitLimitChange(entry, maxVisits));
    if (Object.keys(changes).length === 0) throw new ApiError('NO_CHANGES');

    const modifiedAt = this.deps.clock();
    // modifiedAt follows any edit; urlChangedAt only a new destination (the preview warns about those).
    const updated = await this.deps.repository.update(entry.pos, changes.url === undefined ? { ...changes, modifiedAt } : { ...changes, modifiedAt, urlChangedAt: modifiedAt });
    if (!updated) throw new ApiError('SHORT_URL_NOT_FOUND');
    this.deps.previews.evict(entry.code);
    const redirectChanged = changes.url !== undefined || 'expiresAt' in changes || 'maxVisits' in changes;
    await this.deps.cache.invalidate(entry.code, redirectChanged ? 'edited' : 'credited');
    return { ...this.toRecord({ ...entry, ...changes, modifiedAt }), visits: await this.deps.visitStats.total(entry.code, entry.pos) };
  }

  /**
   * A new `maxVisits`. Set on an entry that had none, it counts the visits the entry already has
   * (its `visits` as clients see them now); changed, it keeps the count; cleared, the entry is
   * unlimited (set again later, it starts from `visits` again).
   */
  private async visitLimitChange(entry: ShortUrl, maxVisits: number | null): Promise<Pick<ShortUrlChanges, 'maxVisits' | 'maxVisitsUsed' | 'maxVisitsReachedAt'>> {
    if (maxVisits === null) return { maxVisits, maxVisitsReachedAt: null };
    const used = entry.maxVisits === null ? await this.deps.visitStats.total(entry.code, entry.pos) : entry.maxVisitsUsed;
    const reachedAt = used < maxVisits ? null : (entry.maxVisits !== null ? entry.maxVisitsReachedAt : null) ?? this.deps.clock();
    return { maxVisits, maxVisitsUsed: used, maxVisitsReachedAt: reachedAt };
  }

  async remove(code: string, managementCode: string): Promise<void> {
    const entry = await this.authorise(code, managementCode);
    const deleted = await this.deps.repository.delete(entry.pos);
    if (!deleted) throw new ApiError('SHORT_URL_NOT_FOUND');
    this.deps.previews.evict(entry.code);
    await this.deps.cache.invalidate(entry.code, 'deleted');
    // The repository deleted its days; visits still on their way are dropped when they reach MySQL
    // (no entry has the code), unless the code is taken again first: clear what Redis holds now.
    await this.deps.pendingVisits.discard(entry.code).catch(() => undefined);
  }
}

/** What the redirect caches hold for an entry. */
export const linkOf = (entry: Pick<ShortUrl, 'url' | 'expiresAt' | 'maxVisits'>): CachedLink => ({
  url: entry.url,
  expiresAt: entry.expiresAt ? entry.expiresAt.getTime() : null,
  limited: entry.maxVisits !== null,
});
