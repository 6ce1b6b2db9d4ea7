import type { ShortUrlRecord } from '@pawlink/contracts';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import type { Expired } from './expiry.rules.js';
import { compileRules, type CompiledRule, type RedirectRule } from './redirect-rules.rules.js';

/** What a redirect needs to know about a code. */
export interface CachedLink {
  url: string;
  /** Unix ms after which the link answers 410; null: no date. */
  expiresAt: number | null;
  /** A `maxVisits` link: every visit is admitted against MySQL, so the fast path never serves it. */
  limited: boolean;
  /** A password-protected link: visitors get the password form, so the fast path never serves it. */
  protected: boolean;
  /** The link's redirect rules, ready to evaluate; null when it has none (the plain fast path). */
  rules: readonly CompiledRule[] | null;
}

/** The stored rules of an entry (JSON in `short_urls.rules`); [] for none. */
export const rulesOf = (entry: Pick<ShortUrl, 'rules'>): RedirectRule[] =>
  entry.rules === null ? [] : (JSON.parse(entry.rules) as RedirectRule[]);

/** `fullURL`: SHORTENER_URL, then the code; never built from the request. */
export const fullUrlOf = (baseUrl: string, code: string): string => `${baseUrl}/${code}`;

/**
 * An entry as clients see it (docs/api.md: the record); `tags` only where its owner asks (create,
 * PATCH, `/links`, the owner's `/:code.json`).
 */
export function toRecord(
  entry: ShortUrl,
  baseUrl: string,
  tags?: string[],
  { hideTarget = false }: { hideTarget?: boolean } = {},
): ShortUrlRecord {
  return {
    code: entry.code,
    createdAt: entry.createdAt.toISOString(),
    modifiedAt: entry.modifiedAt ? entry.modifiedAt.toISOString() : null,
    // A protected link's target is its owner's to see (`hideTarget` for anyone else).
    url: hideTarget && entry.passwordHash !== null ? null : entry.url,
    pos: entry.pos,
    credit: entry.credit,
    fullURL: fullUrlOf(baseUrl, entry.code),
    expiresAt: entry.expiresAt ? entry.expiresAt.toISOString() : null,
    maxVisits: entry.maxVisits,
    rules: hideTarget && entry.passwordHash !== null ? [] : rulesOf(entry),
    protected: entry.passwordHash !== null,
    ...(tags !== undefined ? { tags } : {}),
  };
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

export const expiredLinkOf = (entry: ShortUrl, expired: Expired, baseUrl: string): ExpiredLink => ({
  code: entry.code,
  fullURL: fullUrlOf(baseUrl, entry.code),
  reason: expired.reason,
  expiredAt: expired.at.toISOString(),
  maxVisits: entry.maxVisits,
});

/** What the redirect caches hold for an entry. */
export const linkOf = (
  entry: Pick<ShortUrl, 'url' | 'expiresAt' | 'maxVisits' | 'passwordHash' | 'rules'>,
): CachedLink => ({
  url: entry.url,
  expiresAt: entry.expiresAt ? entry.expiresAt.getTime() : null,
  limited: entry.maxVisits !== null,
  protected: entry.passwordHash !== null,
  rules: compileRules(rulesOf(entry)),
});
