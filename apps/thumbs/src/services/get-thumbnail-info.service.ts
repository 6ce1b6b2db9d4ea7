import { THUMBNAIL_TYPES, type ThumbnailType } from '@pawlink/contracts';
import type { PostRepository, PostRequester } from '../repositories/post.repository.js';
import type { ThumbnailFileRepository } from '../repositories/thumbnail-file.repository.js';
import { postMd5OrRefuse, type ThumbnailTarget } from '../domain/thumbnail-id.rules.js';
import { doneState, type ThumbnailUrls } from '../domain/thumbnail-state.rules.js';

/** What GET /:id tells: the URL of each published type, and the still's ThumbHash in base64. */
export interface ThumbnailInfo {
  urls: Record<ThumbnailType, string | null>;
  thumbhash: string | null;
}

export interface GetThumbnailInfoDeps {
  files: Pick<ThumbnailFileRepository, 'exists' | 'readThumbhash'>;
  posts: Pick<PostRepository, 'md5OfPost'>;
  urls: ThumbnailUrls;
}

/** GET /:id (docs/api.md, "Thumbnails"): which thumbnails of a post exist. */
export class GetThumbnailInfoService {
  constructor(private readonly deps: GetThumbnailInfoDeps) {}

  /**
   * The URL of each thumbnail whose file exists, and the ThumbHash the worker stored with the
   * still. A post id is resolved for `requester` as PUT resolves it (1062, or the board's errors).
   */
  async info(target: ThumbnailTarget, requester: PostRequester = {}): Promise<ThumbnailInfo> {
    const { files, posts, urls } = this.deps;
    const md5 = target.kind === 'md5' ? target.md5 : postMd5OrRefuse(await posts.md5OfPost(target.postId, requester));
    const [thumbhash, ...present] = await Promise.all([
      files.readThumbhash(md5),
      ...THUMBNAIL_TYPES.map((type) => files.exists(md5, type)),
    ]);
    const found = {} as Record<ThumbnailType, string | null>;
    THUMBNAIL_TYPES.forEach((type, i) => {
      found[type] = present[i] ? doneState({ md5, type, urls }).url : null;
    });
    return { urls: found, thumbhash: thumbhash instanceof Buffer ? thumbhash.toString('base64') : null };
  }
}
