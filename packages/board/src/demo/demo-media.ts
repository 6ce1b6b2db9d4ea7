import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_POSTS, type DemoPost } from './demo-posts.js';

/**
 * The demo posts' files in `dir` (`<id>.<ext>`), made with ffmpeg and sharp the first time and
 * kept, so their md5s (and the thumbnails made of them) stay the same from one start to the next.
 */
export async function ensureDemoMedia(
  dir: string,
  posts: readonly DemoPost[] = DEMO_POSTS,
): Promise<Array<{ post: DemoPost; bytes: Buffer }>> {
  await mkdir(dir, { recursive: true });
  const files: Array<{ post: DemoPost; bytes: Buffer }> = [];
  for (const post of posts) {
    const file = path.join(dir, `${post.id}.${post.ext}`);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      bytes = await post.make();
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    }
    files.push({ post, bytes });
  }
  return files;
}
