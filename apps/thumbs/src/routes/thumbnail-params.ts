import type { ThumbnailType } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import { isThumbnailType, parseMd5, parseThumbnailId } from '../thumbnails/thumbnail-id.js';
import { PostUnavailableError, type PostResolver } from '../thumbnails/post-resolver.js';

/** `:id` checked for syntax only (1062 / 1063), before anything costs a board request. */
export function parseIdParam(raw: string): { md5: string } | { postId: number } {
  const target = parseThumbnailId(raw);
  if (target === 'invalid-post-id') throw new ApiError('INVALID_POST_ID');
  if (target === 'invalid-md5') throw new ApiError('INVALID_MD5');
  return target.kind === 'md5' ? { md5: target.md5 } : { postId: target.postId };
}

export function parseTypeParam(raw: string): ThumbnailType {
  if (!isThumbnailType(raw)) throw new ApiError('INVALID_TYPE');
  return raw;
}

export function parseMd5Param(raw: string): string {
  const md5 = parseMd5(raw);
  if (md5 === null) throw new ApiError('INVALID_MD5');
  return md5;
}

/**
 * The MD5 a parsed `:id` names: a post id goes through the board (unknown → 1062). When the board
 * cannot be reached, times out, keeps failing or has no request slot free soon enough, the answer
 * is 503 code 1067 with Retry-After: the request itself was fine and will work later.
 */
export async function md5OfTarget(target: { md5: string } | { postId: number }, posts: PostResolver): Promise<string> {
  if ('md5' in target) return target.md5;
  try {
    const md5 = await posts.md5OfPost(target.postId);
    if (md5 === null) throw new ApiError('INVALID_POST_ID', { message: 'Invalid post id: the board has no such post.' });
    return md5;
  } catch (error) {
    if (error instanceof PostUnavailableError) throw new ApiError('BOARD_UNAVAILABLE', { headers: { 'Retry-After': '5' }, cause: error });
    throw error;
  }
}
