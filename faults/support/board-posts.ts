import { makePng, makeSolidAnimatedGif, type FakeBoard } from '@pawlink/board/testing';

/** A thumbnail job the load can ask for: one post's file MD5 and one output type. */
export interface ThumbnailJobKey {
  md5: string;
  type: 'gif' | 'png';
}

export const jobId = (job: ThumbnailJobKey): string => `${job.md5}.${job.type}`;

/**
 * Registers `count` small posts on the fake board (mostly stills, every tenth an animated GIF):
 * small enough that two workers keep up with the load, so a job that stays open is the fault's
 * doing, not the machine's.
 */
export async function addSmallPosts(board: FakeBoard, count: number, firstId: number): Promise<ThumbnailJobKey[]> {
  const jobs: ThumbnailJobKey[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const animated = i % 10 === 9;
    // The generators vary only a tint (256 values): a size of its own keeps every file's MD5 apart.
    const width = 48 + (i % 40);
    const height = 32 + Math.floor(i / 40);
    const bytes = animated ? await makeSolidAnimatedGif(6, width, height) : await makePng(width, height);
    const post = board.addPost({ id: firstId + i, ext: animated ? 'gif' : 'png', width, height }, bytes);
    if (seen.has(post.md5)) throw new Error(`two generated posts share the MD5 ${post.md5}`);
    seen.add(post.md5);
    jobs.push({ md5: post.md5, type: 'png' }, { md5: post.md5, type: 'gif' });
  }
  return jobs;
}
