import type { BoardClient } from '@pawlink/board';

/** The part of a board post a thumbnail needs: its file type and where to fetch it. */
export interface BoardFile {
  /** Lower-case hex MD5 of the file. */
  md5: string;
  /** Extension as the board reports it. */
  ext: string;
  /** The post's own http(s) file URL, or the static-host layout when the board hides it. */
  url: string;
}

/** Board posts looked up by file md5, through the shared, rate-limited board client. */
export class PostRepository {
  constructor(private readonly board: Pick<BoardClient, 'getPostByMd5' | 'fileUrl'>) {}

  /** The post's file, or null when no post on the board has a file with that md5. */
  async findFileByMd5(md5: string): Promise<BoardFile | null> {
    const post = await this.board.getPostByMd5(md5);
    return post ? { md5: post.md5, ext: post.ext, url: this.board.fileUrl(post) } : null;
  }
}
