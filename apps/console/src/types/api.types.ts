/** A short URL as the API answers it (docs/api.md §2). */
export interface LinkRecord {
  code: string;
  url: string;
  credit: string;
  fullURL: string;
  createdAt: string;
  modifiedAt: string | null;
  expiresAt: string | null;
  maxVisits: number | null;
  visits?: number;
  managementCode?: string | null;
  /** Issue 38: the owner's key sees them; sorted, lower-case. */
  tags?: string[];
  /** Issue 38: whether the link asks for a password. */
  protected?: boolean;
  /** Issue 38: redirect rules, first holding one wins ([] for another key). */
  rules?: Array<{ when: Record<string, unknown>; url: string; forwardQuery?: boolean }>;
}

/** `GET /links`. */
export interface LinksPage {
  links: LinkRecord[];
  next: string | null;
}

/** `GET /:code/stats`. */
export interface LinkStats {
  code: string;
  visits: number;
  days: Array<{ date: string; visits: number }>;
  referrers: Array<{ host: string; visits: number }>;
  countries: Array<{ country: string; visits: number }>;
  browsers: Array<{ name: string; visits: number }>;
  os: Array<{ name: string; visits: number }>;
  devices: { desktop: number; mobile: number; tablet: number; other: number };
  /** Issue 38: visits per rule index that had any, and those no rule decided. */
  rules?: Array<{ index: number; visits: number }>;
  default?: number;
}

/** One item's answer in `POST /create/bulk`. */
export type BulkItem =
  { success: true; status: number; data: LinkRecord } | { success: false; code: number; error: string };
