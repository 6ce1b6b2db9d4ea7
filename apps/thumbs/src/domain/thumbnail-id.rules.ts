import { MD5_PATTERN, normaliseMd5, THUMBNAIL_TYPES, type ThumbnailType } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';

/** What a `:id` segment names: a file by MD5, or a board post to resolve. */
export type ThumbnailTarget = { kind: 'md5'; md5: string } | { kind: 'post'; postId: number };

const DIGITS = /^[0-9]+$/;

/**
 * `:id` (docs/api.md, "Thumbnails"). 32 hex digits are an MD5, even when every digit is decimal
 * (no post id is that long); other all-digit strings are post ids (one that does not fit a safe
 * integer, or 0, is an invalid post id, 1062); anything else is an invalid MD5 (1063), since it
 * cannot be a post id and the MD5 is the thing a client most often mistypes. Only syntax: whether
 * the board knows the post is asked later, once the request has passed validation.
 */
export function parseThumbnailId(raw: unknown): ThumbnailTarget {
  const md5 = normaliseMd5(raw);
  if (md5 !== null) return { kind: 'md5', md5 };
  if (typeof raw === 'string' && DIGITS.test(raw)) {
    const postId = Number(raw);
    if (Number.isSafeInteger(postId) && postId > 0) return { kind: 'post', postId };
    throw new ApiError('INVALID_POST_ID');
  }
  throw new ApiError('INVALID_MD5');
}

export function isThumbnailType(raw: unknown): raw is ThumbnailType {
  return (THUMBNAIL_TYPES as readonly unknown[]).includes(raw);
}

/**
 * `/check/<md5>/<type>` or `/check/<type>/<md5>`: a segment that is a type, or else a segment that
 * is an MD5, decides the order, so the error names what is actually wrong.
 */
export function orderCheckSegments(first: string, second: string): { md5: string; type: string } {
  const swapped =
    (isThumbnailType(first) && !isThumbnailType(second)) ||
    (!isThumbnailType(second) && MD5_PATTERN.test(second) && !MD5_PATTERN.test(first));
  return swapped ? { md5: second, type: first } : { md5: first, type: second };
}

/** The MD5 the board gave for a post id; none means the board has no such post (1062). */
export function postMd5OrRefuse(md5: string | null): string {
  if (md5 === null) throw new ApiError('INVALID_POST_ID', { message: 'Invalid post id: the board has no such post.' });
  return md5;
}
