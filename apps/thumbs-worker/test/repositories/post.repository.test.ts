import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { createLogger } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThumbsWorkerContainer, type ThumbsWorkerContainer } from '../../src/index.js';
import { workerConfig } from '../support.js';

let ctx: TestContext;
let board: FakeBoard;
let container: ThumbsWorkerContainer;

beforeAll(async () => {
  ctx = await createTestContext('thumbsposts');
  board = await startFakeBoard();
  container = createThumbsWorkerContainer(
    workerConfig(ctx, board, { BOARD_REQUESTS_PER_SECOND: '50' }),
    createLogger('thumbs-worker', 'error', { silent: true }),
  );
});

afterAll(async () => {
  await container?.close();
  await board?.close();
  await ctx?.cleanup();
});

describe("PostRepository.findFileByMd5 (the board through the container's rate-limited client)", () => {
  it('finds a post by md5 with its type and its own file URL', async () => {
    const post = board.addPost({ id: 1, ext: 'png' }, await makePng(8, 8));
    const file = await container.posts.findFileByMd5(post.md5);
    expect(file).toEqual({ md5: post.md5, ext: 'png', url: expect.stringMatching(new RegExp(`/${post.md5}\\.png$`)) });
  });

  it('falls back to the static host layout when the board hides the URL', async () => {
    const post = board.addPost({ id: 2, ext: 'webm', hideUrl: true }, Buffer.from('not really a video'));
    const file = await container.posts.findFileByMd5(post.md5);
    expect(file?.url).toBe(`${board.staticUrl}/data/${post.md5.slice(0, 2)}/${post.md5.slice(2, 4)}/${post.md5}.webm`);
  });

  it('answers null for an md5 no post has', async () => {
    expect(await container.posts.findFileByMd5('abcdefabcdefabcdefabcdefabcdef01')).toBeNull();
  });
});
