import { BoardShareUsedError, BoardUnavailableError, type BoardClient, type BoardRequester } from '@pawlink/board';
import { normaliseMd5 } from '@pawlink/contracts';
import { PostShareUsedError, PostUnavailableError } from '../domain/post-lookup.errors.js';

/** Who asks to resolve a post id: the API key and the client IP each get a fair share of the board budget. */
export interface PostRequester {
  apiKeyId?: number;
  ip?: string;
}

/** The most board request slots booked ahead that one API key, and one client IP, may hold at once. */
export interface BoardShares {
  perKey: number;
  perIp: number;
}

/** What this repository needs from `@pawlink/board`'s client. */
export type BoardLookup = Pick<BoardClient, 'resolveMd5'>;

/** Board posts by id: post id → the MD5 of its file. */
export class PostRepository {
  constructor(
    private readonly board: BoardLookup,
    private readonly shares: BoardShares,
  ) {}

  /**
   * The lower-case MD5 of the post's file; null when the board has no such post (or it has no
   * usable file). A lookup the board must answer counts against the requester's shares.
   */
  async md5OfPost(postId: number, requester: PostRequester = {}): Promise<string | null> {
    try {
      return normaliseMd5(await this.board.resolveMd5(postId, { requesters: this.requestersOf(requester) }));
    } catch (error) {
      if (error instanceof BoardShareUsedError) throw new PostShareUsedError(error.retryAfterMs, { cause: error });
      if (error instanceof BoardUnavailableError)
        throw new PostUnavailableError('image board unavailable', { cause: error });
      throw error;
    }
  }

  private requestersOf(requester: PostRequester): BoardRequester[] {
    const requesters: BoardRequester[] = [];
    if (requester.apiKeyId !== undefined)
      requesters.push({ id: `key:${requester.apiKeyId}`, maxHeldSlots: this.shares.perKey });
    if (requester.ip !== undefined && requester.ip !== '')
      requesters.push({ id: `ip:${requester.ip}`, maxHeldSlots: this.shares.perIp });
    return requesters;
  }
}
