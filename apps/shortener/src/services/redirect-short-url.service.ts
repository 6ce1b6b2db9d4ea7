import type { CachedLink, RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import type { VisitTallyRepository } from '../repositories/visit-tally.repository.js';
import { expiryOf } from '../domain/expiry.rules.js';
import { isWellFormedCode } from '../domain/short-code.rules.js';
import { expiredLinkOf, fullUrlOf, linkOf, type ExpiredLink } from '../domain/short-url-record.rules.js';
import { isReservedCode } from '../domain/shortener.policy.js';
import { AgentSummaries, rawReferrerHost, type AgentSummary } from '../domain/visit-source.rules.js';
import { firstHolding, preferredLanguages, withQuery, type CompiledRule } from '../domain/redirect-rules.rules.js';
import { DEFAULT_RULE } from '../domain/visit-breakdown.rules.js';
import { isBotAgent } from '../domain/visitor.rules.js';
import type { VisitCountryRepository } from '../repositories/visit-country.repository.js';
import { REDIRECT_RULES_MAX } from '@pawlink/contracts';

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
export type RedirectPeek = string | RuledLink | RedirectLookup | null;

/** A link held in memory whose rules decide each visit's target (`decide`); the fast lane serves it too. */
export type RuledLink = CachedLink & { readonly rules: readonly CompiledRule[] };

/** Whether a peek found a link with rules in memory (the request's facts decide its target). */
export const isRuled = (peek: RedirectPeek): peek is RuledLink =>
  typeof peek === 'object' && peek !== null && 'rules' in peek;

/** Whether a peek leaves the answer to Redis or MySQL. */
export const needsLookup = (peek: RedirectPeek): peek is RedirectLookup =>
  typeof peek === 'object' && peek !== null && 'held' in peek;

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
export type Decision = 'password' | 'rules';

/** What the rules may read of a request besides its source: `Accept-Language` and the raw query (without `?`). */
export interface RuleFacts {
  readonly userAgent: string | undefined;
  readonly address: string | undefined;
  readonly acceptLanguage: string | undefined;
  readonly rawQuery: string;
}

/** A target the rules chose: the url, and the rule's value in the stats (`0`…`19`, or `default`). */
export interface RuledTarget {
  url: string;
  rule: string;
}

/** The query of a visit without one (the rules only read it). */
const NO_QUERY = new URLSearchParams();

/** The rules' values in the stats, made once: the fast lane allocates no string for them. */
const RULE_VALUES: readonly string[] = Array.from({ length: REDIRECT_RULES_MAX }, (_, i) => String(i));

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
  /** Countries of addresses for the rules' `country` (the breakdown's database); none: no country holds. */
  countries?: Pick<VisitCountryRepository, 'countryOf'>;
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
  private readonly agents = new AgentSummaries();

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
      (link.expiresAt === null || link.expiresAt > this.deps.clock().getTime()) &&
      !link.protected &&
      !isReservedCode(code)
    )
      return link.rules === null ? link.url : (link as RuledLink);
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
    rule?: string,
  ): void {
    // A plain link's visit passes no rule (the tally's arguments as before rules existed).
    if (rule !== undefined) {
      if (this.deps.breakdown)
        this.deps.tally.add(code, rawReferrerHost(referer), userAgent ?? '', address ?? '', rule);
      else this.deps.tally.add(code, undefined, undefined, undefined, rule);
    } else if (this.deps.breakdown) this.deps.tally.add(code, rawReferrerHost(referer), userAgent ?? '', address ?? '');
    else this.deps.tally.add(code);
  }

  /**
   * The target of a link with rules for one request (Shlink's semantics): the first rule whose
   * every condition holds, else the link's url; bots always get the link's url. Each fact is read
   * only when a rule asks for it (the user agent parsed, memoised; the country looked up, memoised).
   */
  decide(link: RuledLink, facts: RuleFacts): RuledTarget {
    if (isBotAgent(facts.userAgent)) return { url: link.url, rule: DEFAULT_RULE };
    let agent: AgentSummary | undefined;
    let languages: readonly string[] | undefined;
    let country: string | null | undefined;
    let query: URLSearchParams | undefined;
    const index = firstHolding(link.rules, {
      now: this.deps.clock().getTime(),
      agent: () => (agent ??= this.agents.of(facts.userAgent ?? '')),
      languages: () => (languages ??= preferredLanguages(facts.acceptLanguage)),
      country: () =>
        country === undefined
          ? (country =
              facts.address === undefined || facts.address === ''
                ? null
                : (this.deps.countries?.countryOf(facts.address) ?? null))
          : country,
      query: () => (query ??= facts.rawQuery === '' ? NO_QUERY : new URLSearchParams(facts.rawQuery)),
    });
    if (index === -1) return { url: link.url, rule: DEFAULT_RULE };
    const rule = link.rules[index]!;
    return { url: rule.forwardQuery ? withQuery(rule.url, facts.rawQuery) : rule.url, rule: RULE_VALUES[index]! };
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
    source: VisitSource & Partial<RuleFacts>,
    unlocked = false,
  ): Promise<VisitOutcome> {
    if (peek === null) return UNKNOWN;
    if (typeof peek === 'string') {
      if (counted) this.count(code, source);
      return { kind: 'redirect', url: peek };
    }
    if (isRuled(peek)) return this.follow(code, peek, counted, source, undefined);
    const link =
      peek.held !== undefined && peek.generation === this.deps.cache.generation
        ? peek.held
        : await this.deps.cache.fetch(code);
    if (link === null) return UNKNOWN;
    const now = this.deps.clock();
    if (link.expiresAt !== null && link.expiresAt <= now.getTime()) return this.expiredOrUnknown(code, now, source);
    // Bots and HEAD get the form too: a protected target is never shown before its password.
    if (link.protected && !unlocked) return { kind: 'password', code, fullURL: fullUrlOf(this.deps.baseUrl, code) };
    const decidedBy: Decision | undefined = link.protected ? 'password' : undefined;
    if (link.limited) {
      if (counted && (await this.deps.repository.admitVisit(code, now)))
        return this.follow(code, link, true, source, decidedBy);
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
      return this.follow(code, linkOf(entry), counted, source, decidedBy);
    }
    return this.follow(code, link, counted, source, decidedBy);
  }

  /** The redirect of a link that may go: its rules decide the target (and the rule counted), else its url. */
  private follow(
    code: string,
    link: CachedLink,
    counted: boolean,
    source: VisitSource & Partial<RuleFacts>,
    decidedBy: Decision | undefined,
  ): VisitOutcome {
    if (link.rules === null) {
      if (counted) this.count(code, source);
      return redirect(link.url, decidedBy);
    }
    const target = this.decide(link as RuledLink, {
      userAgent: source.userAgent,
      address: source.address,
      acceptLanguage: source.acceptLanguage,
      rawQuery: source.rawQuery ?? '',
    });
    if (counted) this.countVisit(code, source.referer, source.userAgent, source.address, target.rule);
    return redirect(target.url, decidedBy ?? 'rules');
  }

  /**
   * The visit of a link just read from MySQL (the password form's POST): as `visit` after a peek
   * that held it; `unlocked` when its password was given.
   */
  visitRead(
    code: string,
    link: CachedLink,
    counted: boolean,
    source: VisitSource & Partial<RuleFacts>,
    unlocked: boolean,
  ): Promise<VisitOutcome> {
    return this.visit(code, { code, held: link, generation: this.deps.cache.generation }, counted, source, unlocked);
  }

  private count(code: string, source: VisitSource): void {
    this.countVisit(code, source.referer, source.userAgent, source.address);
  }

  private async expiredOrUnknown(
    code: string,
    now: Date,
    source: VisitSource & Partial<RuleFacts>,
  ): Promise<VisitOutcome> {
    const entry = await this.deps.repository.findByCode(code);
    if (!entry) return UNKNOWN;
    const expired = expiryOf(entry, now);
    // The cached date was moved by an edit not seen here yet: MySQL decides.
    if (!expired)
      return entry.passwordHash === null
        ? this.follow(code, linkOf(entry), false, source, undefined)
        : { kind: 'password', code, fullURL: fullUrlOf(this.deps.baseUrl, code) };
    return { kind: 'expired', expired: expiredLinkOf(entry, expired, this.deps.baseUrl) };
  }
}
