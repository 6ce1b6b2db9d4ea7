/** A short URL as every shortener response shows it (API.md §2). */
export interface ShortUrlRecord {
  code: string;
  createdAt: string;
  modifiedAt: string | null;
  url: string;
  pos: number;
  credit: string;
  fullURL: string;
}

export interface CreateShortUrlResponse {
  success: true;
  data: ShortUrlRecord & { managementCode: string | null };
}

export interface ShortUrlResponse {
  success: true;
  data: ShortUrlRecord;
}

export const SHORT_CODE_MAX_LENGTH = 50;
export const SHORT_CODE_PATTERN = /^[A-Za-z0-9-]+$/;
export const RANDOM_CODE_LENGTH = 8;
export const RANDOM_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const CREDIT_MAX_LENGTH = 50;
export const DEFAULT_CREDIT = 'Unknown';
export const URL_MAX_LENGTH = 2048;

/** POST /create body (JSON or form); `?editable=true` asks for a management code. */
export interface CreateShortUrlRequest {
  url: string;
  code?: string;
  credit?: string;
}

/** PATCH /:code body: at least one of `url`, `credit` must change (else 1080). */
export interface UpdateShortUrlRequest {
  managementCode: string;
  url?: string;
  credit?: string;
}

/** DELETE /:code body. */
export interface DeleteShortUrlRequest {
  managementCode: string;
}

/** POST /delete body: the compatibility alias of DELETE /:code. */
export interface DeleteShortUrlAliasRequest extends DeleteShortUrlRequest {
  code: string;
}
