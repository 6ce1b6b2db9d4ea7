import type { ShortUrlRecord } from '@pawlink/contracts';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import type { Expired } from './expiry.rules.js';

/** What a redirect needs to know about a code. */
export interface CachedLink {
  url: string;
  /** Unix ms after which the link answers 410; null: no date. */
  expiresAt: number | null;
  /** A `maxVisits` link: every visit is admitted against MySQL, so the fast path never serves it. */
  limited: boolean;
}

/** `fullURL`: SHORTENER_URL, then the code; never built from the request. */
export const fullUrlOf = (baseUrl: string, code: string): string => `${baseUrl}/${code}`;

/**
 * An entry as clients see it (docs/api.md: the record); `tags` only where its owner asks (create,
 * PATCH, `/links`, the owner's `/:code.json`).
 */
export function toRecord(entry: ShortUrl, baseUrl: string, tags?: string[]): ShortUrlRecord {
  return {
    code: entry.code,
    createdAt: entry.createdAt.toISOString(),
    modifiedAt: entry.modifiedAt ? entry.modifiedAt.toISOString() : null,
    url: entry.url,
    pos: entry.pos,
    credit: entry.credit,
    fullURL: fullUrlOf(baseUrl, entry.code),
    expiresAt: entry.expiresAt ? entry.expiresAt.toISOString() : null,
    maxVisits: entry.maxVisits,
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
export const linkOf = (entry: Pick<ShortUrl, 'url' | 'expiresAt' | 'maxVisits'>): CachedLink => ({
  url: entry.url,
  expiresAt: entry.expiresAt ? entry.expiresAt.getTime() : null,
  limited: entry.maxVisits !== null,
});
