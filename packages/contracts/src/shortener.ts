/** A short URL as every shortener response shows it (docs/api.md §2). */
export interface ShortUrlRecord {
  code: string;
  createdAt: string;
  modifiedAt: string | null;
  url: string;
  pos: number;
  credit: string;
  fullURL: string;
  /** When the link stops redirecting (ISO 8601, UTC); null when it does not expire by date. */
  expiresAt: string | null;
  /** The counted visits after which the link stops redirecting; null when unlimited. */
  maxVisits: number | null;
}

/** `GET /:code.json`: the record and its total of counted visits. */
export interface ShortUrlWithVisits extends ShortUrlRecord {
  visits: number;
}

export interface CreateShortUrlResponse {
  success: true;
  data: ShortUrlRecord & { managementCode: string | null };
}

export interface ShortUrlResponse {
  success: true;
  data: ShortUrlRecord;
}

export interface ShortUrlInfoResponse {
  success: true;
  data: ShortUrlWithVisits;
}

/** One UTC day of counted visits. */
export interface VisitDay {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  visits: number;
}

/**
 * Where the visits of the stats period came from (docs/api.md): each list adds up to the period's
 * visits. `referrers` names the top 20 hosts (`direct`: no or an unparseable `Referer`), `browsers`
 * and `os` the top 10, the rest as `other`; `countries` are ISO 3166 alpha-2 or `unknown`.
 */
export interface VisitBreakdown {
  referrers: Array<{ host: string; visits: number }>;
  countries: Array<{ country: string; visits: number }>;
  browsers: Array<{ name: string; visits: number }>;
  os: Array<{ name: string; visits: number }>;
  devices: { desktop: number; mobile: number; tablet: number; other: number };
}

/** `GET /:code/stats`. */
export interface ShortUrlStatsResponse {
  success: true;
  data: { code: string; visits: number; days: VisitDay[] } & VisitBreakdown;
}

/** Days of `GET /:code/stats`: today (UTC) and the days before it. */
export const VISIT_STATS_DAYS = 90;
/** Largest `maxVisits`. */
export const MAX_VISITS_LIMIT = 2_147_483_647;

/** Why a link answers 410 (`extra.reason` of 1083). */
export type ExpiryReason = 'expiresAt' | 'maxVisits';

export const SHORT_CODE_MAX_LENGTH = 50;
export const SHORT_CODE_PATTERN = /^[A-Za-z0-9-]+$/;
export const RANDOM_CODE_LENGTH = 8;
export const RANDOM_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const CREDIT_MAX_LENGTH = 50;
export const DEFAULT_CREDIT = 'Unknown';
export const URL_MAX_LENGTH = 2048;

/** POST /create body (JSON or form); editable (with a management code) unless `?editable=false` (or `0`). */
export interface CreateShortUrlRequest {
  url: string;
  code?: string;
  credit?: string;
  /** ISO 8601 date-time with a zone, in the future. */
  expiresAt?: string | null;
  maxVisits?: number | null;
}

/** PATCH /:code body: at least one of the fields must change (else 1080), and no other field is sent (else 1017); null clears `expiresAt` / `maxVisits`. */
export interface UpdateShortUrlRequest {
  managementCode: string;
  url?: string;
  credit?: string;
  expiresAt?: string | null;
  maxVisits?: number | null;
}

/** DELETE /:code body. */
export interface DeleteShortUrlRequest {
  managementCode: string;
}

/** POST /delete body: the compatibility alias of DELETE /:code. */
export interface DeleteShortUrlAliasRequest extends DeleteShortUrlRequest {
  code: string;
}

/** `GET /links`: page sizes. */
export const LINKS_PAGE_DEFAULT = 25;
export const LINKS_PAGE_MAX = 100;
/** Longest `q` of `GET /links`. */
export const LINKS_QUERY_MAX_LENGTH = 200;

/** `GET /links`: the entries created with the presenting key, newest first, and the cursor of the next page. */
export interface ListShortUrlsResponse {
  success: true;
  data: {
    links: ShortUrlWithVisits[];
    /** Opaque; null on the last page. */
    next: string | null;
  };
}

/** Items of one `POST /create/bulk`. */
export const BULK_CREATE_MAX_LINKS = 100;

/**
 * The body POST /create/bulk takes (its own, above BODY_LIMIT_BYTES, which bounds every other
 * body): BULK_CREATE_MAX_LINKS items of 5 KiB, which holds an item with every field at its longest
 * as the most verbose JSON encoders write it — a URL of URL_MAX_LENGTH characters with every `/`
 * escaped (`\/`, 4096 bytes), a 50-character code, a 50-character credit of surrogate pairs each
 * written `\uXXXX\uXXXX` (600 bytes), an expiry, a visit limit, the names and punctuation — and
 * the envelope.
 */
export const BULK_CREATE_BODY_MAX_BYTES = 512 * 1024;

/** `POST /create/bulk` body. */
export interface BulkCreateShortUrlsRequest {
  links: CreateShortUrlRequest[];
}

/** One item's outcome: what `POST /create` would have answered for it (its HTTP status as `status`), or its failure. */
export type BulkCreateItemResult =
  | { success: true; status: 201 | 200; data: CreateShortUrlResponse['data'] }
  | { success: false; code: number; error: string };

/** `POST /create/bulk`: one result per item, in input order. */
export interface BulkCreateShortUrlsResponse {
  success: true;
  data: BulkCreateItemResult[];
}

/** `GET /:code/qr` parameters. */
export const QR_FORMATS = ['svg', 'png'] as const;
export type QrFormat = (typeof QR_FORMATS)[number];
export const QR_SIZE_MIN = 64;
export const QR_SIZE_MAX = 2048;
export const QR_SIZE_DEFAULT = 512;
export const QR_MARGIN_MAX = 8;
export const QR_MARGIN_DEFAULT = 2;
