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
