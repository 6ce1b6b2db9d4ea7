import { MD5_PATTERN, THUMBNAIL_TYPES, type ThumbnailType } from '@pawlink/contracts';

/** What a `:id` segment names: a file by MD5, or a board post to resolve. */
export type ThumbnailTarget = { kind: 'md5'; md5: string } | { kind: 'post'; postId: number };

export type IdProblem = 'invalid-post-id' | 'invalid-md5';

const DIGITS = /^[0-9]+$/;

/**
 * 32 hex digits are an MD5, even when every digit is decimal (no post id is that long); other
 * all-digit strings are post ids (one that does not fit a safe integer, or 0, is an invalid post
 * id); anything else is reported as an invalid MD5, since it cannot be a post id and the MD5 is
 * the thing a client most often mistypes.
 */
export function parseThumbnailId(raw: string): ThumbnailTarget | IdProblem {
  if (MD5_PATTERN.test(raw)) return { kind: 'md5', md5: raw.toLowerCase() };
  if (DIGITS.test(raw)) {
    const postId = Number(raw);
    return Number.isSafeInteger(postId) && postId > 0 ? { kind: 'post', postId } : 'invalid-post-id';
  }
  return 'invalid-md5';
}

export function parseMd5(raw: string): string | null {
  return MD5_PATTERN.test(raw) ? raw.toLowerCase() : null;
}

export function isThumbnailType(raw: string): raw is ThumbnailType {
  return (THUMBNAIL_TYPES as readonly string[]).includes(raw);
}

/**
 * `/check/<md5>/<type>` or `/check/<type>/<md5>`: a segment that is a type, or else a segment that
 * is an MD5, decides the order, so the error names what is actually wrong.
 */
export function orderCheckSegments(first: string, second: string): { md5: string; type: string } {
  const swapped =
    (isThumbnailType(first) && !isThumbnailType(second)) || (!isThumbnailType(second) && MD5_PATTERN.test(second) && !MD5_PATTERN.test(first));
  return swapped ? { md5: second, type: first } : { md5: first, type: second };
}
