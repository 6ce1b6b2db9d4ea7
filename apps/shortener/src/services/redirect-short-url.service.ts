import type { CachedLink, RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import type { VisitTallyRepository } from '../repositories/visit-tally.repository.js';
import { expiryOf } from '../domain/expiry.rules.js';
import { isWellFormedCode } from '../domain/short-code.rules.js';
import { expiredLinkOf, fullUrlOf, linkOf, type ExpiredLink } from '../domain/short-url-record.rules.js';
import { isReservedCode } from '../domain/shortener.policy.js';
import { rawReferrerHost } from '../domain/visit-source.rules.js';

/** A redirect that memory cannot answer: Redis or MySQL must (what the lookup limit counts). */
export interface RedirectLookup {
  readonly code: string;
  /** What memory held: a `maxVisits` link, one past its `expiresAt`, or none. */
  readonly held: CachedLink | undefined;
  /** The memory's generation at the peek: `held` is current while it has not moved. */
  readonly generation: number;
}

/**
 * What memory answers for a redirect (`peek`): the target url (redirect now); a RedirectLookup
 * (ask Redis or MySQL); or null, for a path segment that cannot be a code (unknown, no lookup).
 */
export type RedirectPeek = string | RedirectLookup | null;

/** Whether a peek leaves the answer to Redis or MySQL. */
export const needsLookup = (peek: RedirectPeek): peek is RedirectLookup => typeof peek === 'object' && peek !== null;

/** Where a visit came from, as the request says it: the raw `Referer` and `User-Agent` headers and the client address. */
export interface VisitSource {
  readonly referer: string | undefined;
  readonly userAgent: string | undefined;
  readonly address: string | undefined;
}

/**
 * Why a redirect's answer must not be kept as long as a plain link's: `password`, reached through
 * the password (never stored); absent for a plain link.
 */
export type Decision = 'password';

/** The answer to a visit of a public path; `password`: the link asks for its password first. */
export type VisitOutcome =
  | { kind: 'redirect'; url: string; decidedBy?: Decision }
  | { kind: 'password'; code: string; fullURL: string }
  | { kind: 'expired'; expired: ExpiredLink }
  | { kind: 'unknown' };

export const UNKNOWN: VisitOutcome = { kind: 'unknown' };

const redirect = (url: string, decidedBy: Decision | undefined): VisitOutcome =>
  decidedBy === undefined ? { kind: 'redirect', url } : { kind: 'redirect', url, decidedBy };

export interface RedirectShortUrlDeps {
  /** Memory, then Redis, then MySQL (through redirectLinkLoader). */
  cache: Pick<RedirectCacheRepository, 'peek' | 'fetch' | 'generation'>;
  repository: Pick<ShortUrlRepository, 'findByCode' | 'admitVisit'>;
  /** This instance's tally of counted visits. */
  tally: Pick<VisitTallyRepository, 'add'>;
  /** Whether the tally keeps where visits came from (SHORTENER_VISIT_BREAKDOWN); off, only the code is tallied. */
  breakdown: boolean;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
  clock: () => Date;
}

/**
 * The redirect cache's source of truth, which container.ts builds the cache with: an entry's link,
 * from MySQL.
 */
export const redirectLinkLoader =
  (repository: Pick<ShortUrlRepository, 'findByCode'>) =>
  async (code: string): Promise<CachedLink | null> => {
    const entry = await repository.findByCode(code);
    return entry ? linkOf(entry) : null;
  };

/**
 * GET /:code (docs/api.md), in both lanes (docs/adr/0006): the fast lane before Express, the
 * lookup limit and the Express handler all start from `peek`, which a request makes once.
 */
export class RedirectShortUrlService {
  constructor(private readonly deps: RedirectShortUrlDeps) {}

  /**
   * What this instance's memory answers for the redirect of the path segment `code`, with no I/O
   * and nothing allocated on a hit: the target url when memory holds a link that redirects now —
   * not a `maxVisits` link (each visit is admitted against MySQL), not one past its `expiresAt`
   * (MySQL says since when: 410), and never for a reserved word, which names one of the app's own
   * routes whatever the cache holds.
   */
  peek(code: string): RedirectPeek {
    if (!isWellFormedCode(code)) return null;
    const link = this.deps.cache.peek(code);
    if (
      link !== undefined &&
      !link.limited &&
      !link.protected &&
      (link.expiresAt === null || link.expiresAt > this.deps.clock().getTime()) &&
      !isReservedCode(code)
    )
      return link.url;
    return { code, held: link, generation: this.deps.cache.generation };
  }

  /**
   * A visit that counts (a GET by a non-bot): one update of the tally, whose key holds the raw
   * referrer host, user agent and address while the breakdown is on. Plain arguments, so the fast
   * lane allocates nothing for it.
   */
  countVisit(
    code: string,
    referer: string | undefined,
    userAgent: string | undefined,
    address: string | undefined,
  ): void {
    if (this.deps.breakdown) this.deps.tally.add(code, rawReferrerHost(referer), userAgent ?? '', address ?? '');
    else this.deps.tally.add(code);
  }

  /**
   * The redirect of `code` after its `peek`: a lookup is resolved through Redis and MySQL (which
   * warms memory). `counted` says whether the request is a visit (`visits` and `maxVisits` count
   * it): a GET that is not a bot. A `maxVisits` link admits each counted visit against MySQL;
   * uncounted requests (bots, HEAD) are redirected without using one up while it has visits left.
   */
  async visit(
    code: string,
    peek: RedirectPeek,
    counted: boolean,
    source: VisitSource,
    unlocked = false,
  ): Promise<VisitOutcome> {
    if (peek === null) return UNKNOWN;
    if (typeof peek === 'string') {
      if (counted) this.count(code, source);
      return { kind: 'redirect', url: peek };
    }
    const link =
      peek.held !== undefined && peek.generation === this.deps.cache.generation
        ? peek.held
        : await this.deps.cache.fetch(code);
    if (link === null) return UNKNOWN;
    const now = this.deps.clock();
    if (link.expiresAt !== null && link.expiresAt <= now.getTime()) return this.expiredOrUnknown(code, now);
    // Bots and HEAD get the form too: a protected target is never shown before its password.
    if (link.protected && !unlocked) return { kind: 'password', code, fullURL: fullUrlOf(this.deps.baseUrl, code) };
    const decidedBy: Decision | undefined = link.protected ? 'password' : undefined;
    if (link.limited) {
      if (counted && (await this.deps.repository.admitVisit(code, now))) {
        this.count(code, source);
        return redirect(link.url, decidedBy);
      }
      // Refused or not counted: MySQL says whether it has visits left (or whether a late edit lifted the limit).
      const entry = await this.deps.repository.findByCode(code);
      if (!entry) return UNKNOWN;
      const expired = expiryOf(entry, now);
      if (expired) return { kind: 'expired', expired: expiredLinkOf(entry, expired, this.deps.baseUrl) };
      if (counted && entry.maxVisits !== null && !(await this.deps.repository.admitVisit(code, now))) {
        // An edit raised the limit between the two reads and others used it up meanwhile.
        return { kind: 'expired', expired: expiredLinkOf(entry, { reason: 'maxVisits', at: now }, this.deps.baseUrl) };
      }
      if (entry.passwordHash !== null && !unlocked)
        return { kind: 'password', code, fullURL: fullUrlOf(this.deps.baseUrl, code) };
      if (counted) this.count(code, source);
      return redirect(entry.url, decidedBy);
    }
    if (counted) this.count(code, source);
    return redirect(link.url, decidedBy);
  }

  /**
   * The visit of a link just read from MySQL (the password form's POST): as `visit` after a peek
   * that held it; `unlocked` when its password was given.
   */
  visitRead(
    code: string,
    link: CachedLink,
    counted: boolean,
    source: VisitSource,
    unlocked: boolean,
  ): Promise<VisitOutcome> {
    return this.visit(code, { code, held: link, generation: this.deps.cache.generation }, counted, source, unlocked);
  }

  private count(code: string, source: VisitSource): void {
    this.countVisit(code, source.referer, source.userAgent, source.address);
  }

  private async expiredOrUnknown(code: string, now: Date): Promise<VisitOutcome> {
    const entry = await this.deps.repository.findByCode(code);
    if (!entry) return UNKNOWN;
    const expired = expiryOf(entry, now);
    // The cached date was moved by an edit not seen here yet: MySQL decides.
    if (!expired)
      return entry.passwordHash === null
        ? { kind: 'redirect', url: entry.url }
        : { kind: 'password', code, fullURL: fullUrlOf(this.deps.baseUrl, code) };
    return { kind: 'expired', expired: expiredLinkOf(entry, expired, this.deps.baseUrl) };
  }
}
