/** A board post reduced to what Pawlink needs; `url` is always set (static fallback applied). */
export interface BoardPost {
  id: number;
  /** Lower-case hex MD5 of the post's file. */
  md5: string;
  /** File extension as the board reports it (`webm`, `mp4`, `gif`, `png`, `jpg`, `webp`, …). */
  ext: string;
  url: string;
  width: number;
  height: number;
  size: number;
  /** Seconds, for videos and animations; null for stills. */
  duration: number | null;
}

/** The part of an e621-style post object this package reads. */
export interface RawBoardPost {
  id?: unknown;
  file?: { md5?: unknown; ext?: unknown; url?: unknown; width?: unknown; height?: unknown; size?: unknown } | null;
  duration?: unknown;
}

const MD5 = /^[0-9a-f]{32}$/;
const EXT = /^[a-z0-9]{1,8}$/;

/**
 * The board hides `file.url` for some posts (login-only content); the file still lives at a
 * predictable place on its static host.
 */
export function staticFileUrl(staticUrl: string, md5: string, ext: string): string {
  const base = staticUrl.replace(/\/+$/, '');
  return `${base}/data/${md5.slice(0, 2)}/${md5.slice(2, 4)}/${md5}.${ext}`;
}

/**
 * Only absolute http(s) URLs are fetched. Anything else the board sends (`file:`, `javascript:`,
 * relative or garbage) is treated like a hidden URL, so a broken or hostile answer can never
 * make the worker read a local file or fail its download on a URL that cannot work.
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Turns a raw post into a BoardPost, or null when it lacks an id, md5 or extension (deleted posts). */
export function normalizePost(raw: RawBoardPost | null | undefined, staticUrl: string): BoardPost | null {
  if (!raw || typeof raw !== 'object') return null;
  const file = raw.file;
  if (!file || typeof file !== 'object') return null;
  const id = raw.id;
  const md5 = typeof file.md5 === 'string' ? file.md5.toLowerCase() : '';
  const ext = typeof file.ext === 'string' ? file.ext.toLowerCase() : '';
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || !MD5.test(md5) || !EXT.test(ext)) return null;
  const url = isHttpUrl(file.url) ? file.url : staticFileUrl(staticUrl, md5, ext);
  const duration = typeof raw.duration === 'number' && Number.isFinite(raw.duration) ? raw.duration : null;
  return {
    id,
    md5,
    ext,
    url,
    width: finite(file.width),
    height: finite(file.height),
    size: finite(file.size),
    duration,
  };
}
