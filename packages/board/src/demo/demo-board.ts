import { startFakeBoard, type FakeBoard } from '../testing/fake-board.js';
import { ensureDemoMedia } from './demo-media.js';
import type { DemoPost } from './demo-posts.js';

export interface DemoBoard {
  /** BOARD_URL and BOARD_STATIC_URL of the demo board. */
  url: string;
  posts: Array<{ id: number; md5: string; ext: string; label: string }>;
  close(): Promise<void>;
}

/**
 * A local stand-in for the image board with a handful of sample posts (`DEMO_POSTS`), for a first
 * run without internet (`BOARD_URL=demo`, `npm start -- --demo`): the e621 JSON API and the files,
 * on `host:port` (loopback by default).
 */
export async function startDemoBoard(options: {
  dir: string;
  port?: number;
  host?: string;
  posts?: readonly DemoPost[];
}): Promise<DemoBoard> {
  const files = await ensureDemoMedia(options.dir, options.posts);
  const board: FakeBoard = await startFakeBoard({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const posts = files.map(({ post, bytes }) => {
    const added = board.addPost(
      { id: post.id, ext: post.ext, width: post.width, height: post.height, duration: post.duration },
      bytes,
    );
    return { id: post.id, md5: added.md5, ext: post.ext, label: post.label };
  });
  return { url: board.url, posts, close: () => board.close() };
}
