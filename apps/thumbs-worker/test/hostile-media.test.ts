import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeAnimatedGif, makeAudioOnlyMp4, makeMp4, makePng, makeWebm, type FakeBoard } from '@pawlink/board/testing';
import {
  isThumbnailTimeout,
  THUMBNAIL_FAILURE_REASONS,
  thumbnailJobId,
  type ThumbnailFailure,
  type ThumbnailType,
} from '@pawlink/contracts';
import type { TestContext } from '@pawlink/test-kit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogLines, startWorkerHarness, type CapturedLogs, type WorkerHarness } from './support.js';

/*
 * Hostile or broken input from the board. Every case must end as a readable, unrecoverable
 * failure (one attempt, not a timeout: the API answers 500 1060 with its class's fixed reason,
 * while the worker's log says which check refused it) or as a correct thumbnail — never a crashed
 * worker, a hung job or a partial file. Default render limits apply.
 */

let harness: WorkerHarness;
let ctx: TestContext;
let board: FakeBoard;
let thumbsDir: string;
let tmpDir: string;
let logs: CapturedLogs;
let nextId = 1;

beforeAll(async () => {
  logs = captureLogLines();
  harness = await startWorkerHarness('thumbshostile', {
    env: {
      WORKER_CONCURRENCY: '2',
      THUMBS_JOB_TIMEOUT_MS: '30000',
      BOARD_REQUESTS_PER_SECOND: '50',
      LOG_LEVEL: 'warn',
    },
  });
  ({ ctx, board, thumbsDir } = harness);
  tmpDir = harness.config.worker.tmpDir;
});

afterAll(async () => {
  await harness?.close();
  logs?.stop();
});

const md5Of = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

const run = (md5: string, type: ThumbnailType = 'gif') => harness.run(md5, type);

async function outputsOf(md5: string): Promise<string[]> {
  return (await readdir(thumbsDir).catch(() => [] as string[])).filter((name) => name.includes(md5));
}

/**
 * Failed once and for good with the fixed reason of `failure`, nothing written, and the worker's
 * log line naming the check that refused it (`detail`).
 */
async function expectUnrecoverable(
  md5: string,
  failure: ThumbnailFailure,
  detail: RegExp,
  type: ThumbnailType = 'gif',
): Promise<void> {
  const job = await run(md5, type);
  expect(await job.getState()).toBe('failed');
  expect(job.attemptsMade).toBe(1);
  expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS[failure]);
  expect(isThumbnailTimeout(job.failedReason)).toBe(false);
  expect(await outputsOf(md5)).toEqual([]);
  const logged = await logs.waitFor(
    (line) => line.jobId === thumbnailJobId(md5, type) && line.message === 'thumbnail job failed for good',
  );
  expect(logged).toMatchObject({
    service: 'thumbs-worker',
    level: 'warn',
    failure,
    reason: THUMBNAIL_FAILURE_REASONS[failure],
  });
  expect(logged.detail).toMatch(detail);
  // the detail stays in the log, but not this host's paths either
  expect(logged.detail).not.toContain(tmpDir);
}

/** A PNG whose header claims `width`×`height`; its few bytes of image data decode to nothing like that. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await makePng(8, 8));
  // IHDR data starts at byte 16 (8 signature + 4 length + 4 type); its CRC covers type + data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  const { crc32 } = await import('node:zlib');
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('hostile media files', () => {
  it('a zero-byte file fails as unrecoverable', async () => {
    const post = board.addPost({ id: nextId++, ext: 'webm' }, Buffer.alloc(0));
    await expectUnrecoverable(post.md5, 'unreadable', /^not a readable video: input: Invalid data found/);
    // the same (empty) md5 re-registered as an image, asked for as a PNG: a job id of its own
    board.addPost({ id: nextId++, ext: 'png' }, Buffer.alloc(0));
    await expectUnrecoverable(post.md5, 'unreadable', /^not a readable image/, 'png');
  });

  it('HTML served as an image or a video fails as unrecoverable', async () => {
    const html = (tag: string) => Buffer.from(`<!DOCTYPE html><html><body>Access denied ${tag}</body></html>\n`);
    const asPng = board.addPost({ id: nextId++, ext: 'png' }, html('png'));
    const asMp4 = board.addPost({ id: nextId++, ext: 'mp4' }, html('mp4'));
    await Promise.all([
      expectUnrecoverable(asPng.md5, 'unreadable', /^not a readable image/),
      expectUnrecoverable(asMp4.md5, 'unreadable', /^not a readable video/),
    ]);
  });

  it('an SVG or a TIFF served as an image type of the board is not decoded', async () => {
    const svg = board.addPost(
      { id: nextId++, ext: 'png' },
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="80"><!-- ${Math.random()} --><rect width="100" height="80" fill="red"/></svg>`,
      ),
    );
    const tiff = board.addPost(
      { id: nextId++, ext: 'jpg' },
      await sharp(await makePng(16, 16))
        .tiff()
        .toBuffer(),
    );
    await Promise.all([
      expectUnrecoverable(svg.md5, 'unreadable', /^unsupported image format "svg"$/),
      expectUnrecoverable(tiff.md5, 'unreadable', /^unsupported image format "tiff"$/),
    ]);
  });

  it('a PNG claiming 20000×20000 is refused by the pixel limit before anything is decoded', async () => {
    const post = board.addPost({ id: nextId++, ext: 'png' }, await pngClaiming(20_000, 20_000));
    await expectUnrecoverable(post.md5, 'tooLarge', /20000×20000, over the 100000000 pixel limit/);
  });

  it('a GIF with thousands of frames becomes a short GIF within the frame limit', async () => {
    const post = board.addPost({ id: nextId++, ext: 'gif' }, await makeAnimatedGif(3000, 16, 16));
    const job = await run(post.md5);
    expect(job.failedReason ?? '').toBe('');
    expect(await job.getState()).toBe('completed');
    const meta = await sharp(path.join(thumbsDir, `${post.md5}.gif`), { animated: true }).metadata();
    expect(meta.pages).toBeGreaterThan(1);
    expect(meta.pages).toBeLessThanOrEqual(60);
  });

  it('a 1×1 webm becomes a 1×1 thumbnail', async () => {
    const post = board.addPost({ id: nextId++, ext: 'webm' }, await makeWebm(1, 1, 1));
    const job = await run(post.md5);
    expect(job.failedReason ?? '').toBe('');
    expect(job.returnvalue).toMatchObject({ width: 1, height: 1 });
    const png = await sharp(path.join(thumbsDir, `${post.md5}.png`)).metadata();
    expect([png.width, png.height]).toEqual([1, 1]);
  });

  it('a playlist or concat script posing as a video never makes ffmpeg open other local files', async () => {
    const privateDir = path.join(ctx.mediaDir, 'private');
    await mkdir(privateDir, { recursive: true });
    const secret = path.join(privateDir, 'secret.mp4');
    await writeFile(secret, await makeMp4(1, 64, 64));
    const playlist = board.addPost(
      { id: nextId++, ext: 'webm' },
      Buffer.from(
        `#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n${secret}\n#EXT-X-ENDLIST\n`,
      ),
    );
    const concat = board.addPost(
      { id: nextId++, ext: 'mp4' },
      Buffer.from(`ffconcat version 1.0\nfile secret.mp4\n# ${Math.random()}\n`),
    );
    await Promise.all([
      expectUnrecoverable(
        playlist.md5,
        'unreadable',
        /^not a readable video: the file is hls, not a WebM or MP4 container$/,
      ),
      expectUnrecoverable(concat.md5, 'unreadable', /^not a readable video/),
    ]);
  });

  it('an image under a video extension is refused with a reason that names what it is', async () => {
    const post = board.addPost({ id: nextId++, ext: 'webm' }, await makeAnimatedGif(3, 16, 16));
    await expectUnrecoverable(
      post.md5,
      'unreadable',
      /^not a readable video: the file is gif, not a WebM or MP4 container$/,
    );
  });

  it('an mp4 with audio only fails as unrecoverable', async () => {
    const post = board.addPost({ id: nextId++, ext: 'mp4' }, await makeAudioOnlyMp4(1));
    await expectUnrecoverable(post.md5, 'unreadable', /no video stream/);
  });
});

describe('malformed post JSON from the board', () => {
  it('a post without a usable file (missing, null, wrong types) fails as unrecoverable', async () => {
    const md5s: string[] = [];
    const answers = (md5: string): unknown[] => [
      { posts: [{ id: 1 }] },
      { posts: [{ id: 1, file: null, duration: null }] },
      { posts: [{ id: 1, file: { md5: 12345, ext: 'png', url: null } }] },
      { posts: [{ id: 1, file: { md5, ext: ['png'] } }] },
      { posts: [{ id: null, file: { md5, ext: 'png' } }] },
      { posts: [null, 5, 'post'] },
      { posts: { 0: { id: 1 } } },
      { posts: null },
      { post: { id: 1, file: { md5, ext: 'png' } } },
      null,
      [],
      JSON.stringify('a string'),
    ];
    for (const [i] of answers('').entries()) {
      const md5 = md5Of(Buffer.from(`malformed post ${i} ${Math.random()}`));
      board.answerRaw(`/posts.json?tags=md5:${md5}`, answers(md5)[i]);
      md5s.push(md5);
    }
    await Promise.all(md5s.map((md5) => expectUnrecoverable(md5, 'notOnBoard', /^post not found on the board$/)));
  });

  it('wrong types in fields the worker does not need still give a correct thumbnail', async () => {
    const post = board.addPost({ id: nextId++, ext: 'png' }, await makePng(64, 48));
    board.answerRaw(`/posts.json?tags=md5:${post.md5}`, {
      posts: [
        {
          id: post.id,
          duration: 'long',
          file: { md5: post.md5.toUpperCase(), ext: 'PNG', url: 12_345, width: 'wide', height: null, size: -1 },
        },
      ],
    });
    const job = await run(post.md5);
    expect(job.failedReason ?? '').toBe('');
    expect(job.returnvalue).toMatchObject({ width: 64, height: 48 });
  });

  it('a file.url that is not an http(s) URL falls back to the static layout instead of being fetched', async () => {
    const urls = [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
      '//evil.invalid/x.png',
      'ftp://example.com/x.png',
    ];
    const posts = await Promise.all(
      urls.map(async (url) => {
        const post = board.addPost({ id: nextId++, ext: 'png' }, await makePng(32, 32));
        board.answerRaw(`/posts.json?tags=md5:${post.md5}`, {
          posts: [{ id: post.id, file: { md5: post.md5, ext: 'png', url } }],
        });
        return post;
      }),
    );
    const jobs = await Promise.all(posts.map((post) => run(post.md5, 'png')));
    for (const job of jobs) {
      expect(job.failedReason ?? '').toBe('');
      expect(job.attemptsMade).toBe(1);
    }
  });

  it('left no temp files in the thumbnail directory', async () => {
    expect((await readdir(thumbsDir)).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
