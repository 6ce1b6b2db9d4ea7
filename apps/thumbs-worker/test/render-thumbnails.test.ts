import { access, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  makeAnimatedGif,
  makeAnimatedWebp,
  makeJpeg,
  makeMp4,
  makePng,
  makeWebm,
  type FakeBoard,
} from '@pawlink/board/testing';
import { THUMBNAIL_FAILURE_REASONS, type ThumbnailType } from '@pawlink/contracts';
import sharp, { type Metadata } from 'sharp';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerHarness, type WorkerHarness } from './support.js';

let harness: WorkerHarness;
let board: FakeBoard;
let thumbsDir: string;
let nextId = 1;

beforeAll(async () => {
  harness = await startWorkerHarness('thumbsworker', { env: { WORKER_CONCURRENCY: '2' } });
  ({ board, thumbsDir } = harness);
});

afterAll(() => harness?.close());

async function render(bytes: Buffer, ext: string, type: ThumbnailType, hideUrl = false) {
  const post = board.addPost({ id: nextId++, ext, hideUrl }, bytes);
  const job = await harness.run(post.md5, type);
  return { post, job };
}

const fits = (meta: Metadata) => {
  const height = meta.pageHeight ?? meta.height ?? 0;
  return (meta.width ?? 0) > 0 && (meta.width ?? 0) <= 320 && height > 0 && height <= 320;
};

/** The animated file of the type (`gif` or `webp`) and the PNG, fully decoded; the ThumbHash beside them. */
async function outputs(md5: string, type: AnimatedType = 'gif') {
  const animated = await readFile(path.join(thumbsDir, `${md5}.${type}`));
  const png = await readFile(path.join(thumbsDir, `${md5}.png`));
  const gifMeta = await sharp(animated, { animated: true }).metadata();
  const pngMeta = await sharp(png).metadata();
  // a full decode, not only the header: a truncated file fails here
  await sharp(png).raw().toBuffer();
  await sharp(animated, { animated: true }).raw().toBuffer();
  const thumbhash = await readFile(path.join(thumbsDir, `${md5}.thumbhash`));
  expect(thumbHashToApproximateAspectRatio(thumbhash)).toBeCloseTo((pngMeta.width ?? 0) / (pngMeta.height ?? 1), 0);
  return { gifMeta, pngMeta };
}

type AnimatedType = Extract<ThumbnailType, 'gif' | 'webp'>;
const exists = (md5: string, type: ThumbnailType): Promise<boolean> =>
  access(path.join(thumbsDir, `${md5}.${type}`)).then(
    () => true,
    () => false,
  );

describe('thumbnail rendering', () => {
  it.each(['gif', 'webp'] as const)(
    'renders a webm (file.url hidden by the board) into an animated %s and a PNG that fit 320×320',
    async (type) => {
      const { post, job } = await render(await makeWebm(4.5, 480, 270, { fps: 15 }), 'webm', type, true);
      expect(job.failedReason).toBeUndefined();
      expect(await job.getState()).toBe('completed');
      expect(job.returnvalue).toMatchObject({
        md5: post.md5,
        type,
        file: `${post.md5}.${type}`,
        width: 320,
        height: 180,
      });
      expect(job.progress).toBe(100);
      const { gifMeta, pngMeta } = await outputs(post.md5, type);
      expect(gifMeta.format).toBe(type);
      expect(gifMeta.pages).toBeGreaterThan(1);
      expect(gifMeta.pages).toBeLessThanOrEqual(30);
      expect(gifMeta.loop).toBe(0);
      expect(fits(gifMeta)).toBe(true);
      expect({ format: pngMeta.format, width: pngMeta.width, height: pngMeta.height }).toEqual({
        format: 'png',
        width: 320,
        height: 180,
      });
    },
  );

  it('a GIF job also writes the WebP from the same frames (same size, frame count and timing); a WebP job does not write the GIF', async () => {
    const { post, job } = await render(await makeWebm(3, 320, 240, { fps: 12 }), 'webm', 'gif');
    expect(job.returnvalue?.written).toEqual(['png', 'webp', 'gif']);
    const gif = await sharp(path.join(thumbsDir, `${post.md5}.gif`), { animated: true }).metadata();
    const webp = await sharp(path.join(thumbsDir, `${post.md5}.webp`), { animated: true }).metadata();
    expect({
      width: webp.width,
      pageHeight: webp.pageHeight,
      pages: webp.pages,
      delay: webp.delay,
      loop: webp.loop,
    }).toEqual({ width: gif.width, pageHeight: gif.pageHeight, pages: gif.pages, delay: gif.delay, loop: gif.loop });
    expect((await stat(path.join(thumbsDir, `${post.md5}.webp`))).size).toBeLessThan(
      (await stat(path.join(thumbsDir, `${post.md5}.gif`))).size,
    );

    const other = await render(await makeWebm(3, 320, 240, { fps: 12 }), 'webm', 'webp');
    expect(other.job.returnvalue?.written).toEqual(['png', 'webp']);
    expect(await exists(other.post.md5, 'gif')).toBe(false);
  });

  it('renders a portrait mp4', async () => {
    const { post, job } = await render(await makeMp4(2, 240, 400), 'mp4', 'gif');
    expect(job.failedReason).toBeUndefined();
    const { gifMeta, pngMeta } = await outputs(post.md5);
    expect(gifMeta.pages).toBeGreaterThan(1);
    expect(fits(gifMeta) && fits(pngMeta)).toBe(true);
    expect(pngMeta.height).toBe(320);
  });

  it.each(['gif', 'webp'] as const)(
    'renders an animated GIF and an animated WebP into animated %s files',
    async (type) => {
      for (const [bytes, ext] of [
        [await makeAnimatedGif(12, 400, 300), 'gif'],
        [await makeAnimatedWebp(8, 200, 100), 'webp'],
      ] as const) {
        const { post, job } = await render(bytes, ext, type);
        expect(job.failedReason).toBeUndefined();
        const { gifMeta, pngMeta } = await outputs(post.md5, type);
        expect(gifMeta.format).toBe(type);
        expect(gifMeta.pages).toBeGreaterThan(1);
        expect(fits(gifMeta) && fits(pngMeta)).toBe(true);
      }
    },
  );

  it.each(['gif', 'webp'] as const)('renders stills into a one-frame %s and a PNG', async (type) => {
    for (const [bytes, ext] of [
      [await makeJpeg(900, 600), 'jpg'],
      [await makePng(100, 80), 'png'],
    ] as const) {
      const { post, job } = await render(bytes, ext, type);
      expect(job.failedReason).toBeUndefined();
      const { gifMeta, pngMeta } = await outputs(post.md5, type);
      expect(gifMeta.format).toBe(type);
      expect(gifMeta.pages ?? 1).toBe(1);
      expect(fits(gifMeta) && fits(pngMeta)).toBe(true);
    }
  });

  it('a PNG job writes the PNG only (and its ThumbHash)', async () => {
    const { post, job } = await render(await makeWebm(2, 160, 120), 'webm', 'png');
    expect(job.returnvalue).toMatchObject({
      type: 'png',
      file: `${post.md5}.png`,
      frames: 1,
      width: 160,
      height: 120,
      written: ['png'],
    });
    expect((await sharp(path.join(thumbsDir, `${post.md5}.png`)).metadata()).format).toBe('png');
    await expect(access(path.join(thumbsDir, `${post.md5}.gif`))).rejects.toThrow();
    expect(await exists(post.md5, 'webp')).toBe(false);
    expect((await readFile(path.join(thumbsDir, `${post.md5}.thumbhash`))).length).toBeGreaterThan(4);
  });

  it.each(['gif', 'webp', 'png', 'mp4'] as const)(
    'fails a corrupt file as unrecoverable with a readable reason, without retries (%s)',
    async (type) => {
      const { job } = await render(
        Buffer.from(`this is not a video at all, only text pretending to be one (${type})`),
        'webm',
        type,
      );
      expect(await job.getState()).toBe('failed');
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.unreadable);
    },
  );

  it.each(['gif', 'webp', 'mp4'] as const)('fails a corrupt GIF the same way (%s)', async (type) => {
    const { job } = await render(
      Buffer.concat([Buffer.from('GIF89a'), Buffer.from(type), Buffer.alloc(64, 7)]),
      'gif',
      type,
    );
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.unreadable);
  });

  it.each(['gif', 'webp'] as const)('fails an md5 the board does not know as unrecoverable (%s)', async (type) => {
    const md5 = 'abcdefabcdefabcdefabcdefabcdef01';
    const job = await harness.run(md5, type);
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.notOnBoard);
  });

  it('retries when the downloaded bytes do not match the md5, and reports it', async () => {
    const post = board.addPost(
      { id: nextId++, ext: 'png', md5: 'fedcba9876543210fedcba9876543210' },
      await makePng(20, 20),
    );
    const job = await harness.run(post.md5, 'png');
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(3);
    expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.mismatch);
  });

  it('fails an unsupported file type as unrecoverable', async () => {
    const { job } = await render(Buffer.from('FWS fake flash'), 'swf', 'gif');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.unsupportedType);
  });

  it('leaves no temp files behind in the thumbnail directory', async () => {
    const names = await readdir(thumbsDir);
    expect(names.filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
