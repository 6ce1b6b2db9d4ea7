import { BoardUnavailableError, type BoardClient } from '@pawlink/board';
import { normaliseMd5 } from '@pawlink/contracts';

/** The board could not answer (network, timeout, 5xx after retries, no rate-limit slot soon enough). */
export class PostUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PostUnavailableError';
  }
}

/** What this repository needs from `@pawlink/board`'s client. */
export type BoardLookup = Pick<BoardClient, 'resolveMd5'>;

/** Board posts by id: post id → the MD5 of its file. */
export class PostRepository {
  constructor(private readonly board: BoardLookup) {}

  /** The lower-case MD5 of the post's file; null when the board has no such post (or it has no usable file). */
  async md5OfPost(postId: number): Promise<string | null> {
    try {
      return normaliseMd5(await this.board.resolveMd5(postId));
    } catch (error) {
      if (error instanceof BoardUnavailableError) throw new PostUnavailableError('image board unavailable', { cause: error });
      throw error;
    }
  }
}
