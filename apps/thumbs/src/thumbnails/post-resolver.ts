import { MD5_PATTERN } from '@pawlink/contracts';

/** The board could not answer (network, timeout, 5xx after retries). */
export class PostUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PostUnavailableError';
  }
}

/** Post id → file MD5, through the image board. */
export interface PostResolver {
  /** null when the board has no such post (or it has no file). */
  md5OfPost(postId: number): Promise<string | null>;
}

/** What the API needs from `@pawlink/board`'s client. */
export interface BoardLookup {
  resolveMd5(id: number): Promise<string | null>;
}

/** Adapts the board client, turning its "unreachable" failure into the API's own error. */
export function boardPostResolver(board: BoardLookup, isUnavailable: (error: unknown) => boolean): PostResolver {
  return {
    async md5OfPost(postId) {
      try {
        const md5 = await board.resolveMd5(postId);
        return md5 !== null && MD5_PATTERN.test(md5) ? md5.toLowerCase() : null;
      } catch (error) {
        if (isUnavailable(error)) throw new PostUnavailableError('image board unavailable', { cause: error });
        throw error;
      }
    },
  };
}
