import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeAnimatedGif, makeAnimatedWebp, makeMp4, makePng, makeWebm } from '@pawlink/board/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { thumbHashToAverageRGBA, thumbHashToApproximateAspectRatio } from 'thumbhash';
import { ImageRepository } from '../../src/repositories/image.repository.js';
import { ThumbnailEncoderRepository } from '../../src/repositories/thumbnail-encoder.repository.js';
import { VideoRepository } from '../../src/repositories/video.repository.js';
import { ImageClipService } from '../../src/services/image-clip.service.js';
import { VideoClipService } from '../../src/services/video-clip.service.js';
import type { Clip } from '../../src/domain/clip.rules.js';

const encoder = new ThumbnailEncoderRepository({ ffmpegPath: 'ffmpeg' });
const videos = new VideoClipService(new VideoRepository({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' }));
const images = new ImageClipService(new ImageRepository());
const request = { box: 320, maxFps: 10, maxFrames: 60, clipSeconds: 3, maxInputPixels: 100_000_000 };

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-encoder-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = async (name: string, bytes: Buffer): Promise<string> => {
  const target = path.join(dir, name);
  await writeFile(target, bytes);
  return target;
};

/**
 * The clip's frames mapped onto ffmpeg's palette, as RGBA: the same filter as the worker's
 * (palettegen with its transparent entry, paletteuse's default dithering), converted by ffmpeg
 * itself, not through any GIF.
 */
async function paletteMapped(clip: Clip): Promise<Buffer> {
  const child = promisify(execFile)(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-video_size',
      `${clip.width}x${clip.height}`,
      '-framerate',
      '10',
      '-i',
      'pipe:0',
      '-filter_complex',
      'split[a][b];[a]palettegen=reserve_transparent=1[p];[b][p]paletteuse',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 30 },
  );
  child.child.stdin!.end(Buffer.concat(clip.frames));
  return (await child).stdout;
}

/** Every frame of the GIF as a viewer shows it, RGBA; a transparent pixel's colour is left out (it is the decoder's). */
async function shown(gif: Buffer): Promise<Buffer> {
  const { data } = await sharp(gif, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return clearTransparent(data);
}

const clearTransparent = (rgba: Buffer): Buffer => {
  const out = Buffer.from(rgba);
  for (let i = 0; i < out.length; i += 4) if (out[i + 3] === 0) out.writeUInt32LE(0, i);
  return out;
};

/** How many pixels differ between two RGBA sequences (all of them when the lengths differ). */
const differing = (a: Buffer, b: Buffer): number => {
  if (a.length !== b.length) return Math.max(a.length, b.length) / 4;
  let count = 0;
  for (let i = 0; i < a.length; i += 4) if (a.readUInt32LE(i) !== b.readUInt32LE(i)) count++;
  return count;
};

/** Frames of one solid colour each (red, green, blue, …), 40×20. */
function solidClip(colours: Array<[number, number, number]>, delayMs = 100): Clip {
  const frames = colours.map(([r, g, b]) => {
    const frame = Buffer.alloc(40 * 20 * 4);
    for (let i = 0; i < frame.length; i += 4) frame.set([r, g, b, 255], i);
    return frame;
  });
  return { width: 40, height: 20, frames, delaysMs: frames.map(() => delayMs) };
}

describe('ThumbnailEncoderRepository', () => {
  it("encodes every frame into a looping GIF with the clip's timing", async () => {
    const gif = await encoder.gif(
      solidClip(
        [
          [255, 0, 0],
          [0, 255, 0],
          [0, 0, 255],
        ],
        200,
      ),
    );
    const meta = await sharp(gif, { animated: true }).metadata();
    expect({
      format: meta.format,
      width: meta.width,
      pageHeight: meta.pageHeight,
      pages: meta.pages,
      loop: meta.loop,
      delay: meta.delay,
    }).toEqual({
      format: 'gif',
      width: 40,
      pageHeight: 20,
      pages: 3,
      loop: 0,
      delay: [200, 200, 200],
    });
    // one palette shared by all frames still renders each colour
    const { data, info } = await sharp(gif, { animated: true }).raw().toBuffer({ resolveWithObject: true });
    const pixelOfPage = (page: number): number[] => [
      ...data.subarray(page * 40 * 20 * info.channels, page * 40 * 20 * info.channels + 3),
    ];
    expect(pixelOfPage(0)[0]).toBeGreaterThan(200);
    expect(pixelOfPage(1)[1]).toBeGreaterThan(200);
    expect(pixelOfPage(2)[2]).toBeGreaterThan(200);
  });

  it("keeps each frame's own delay, and gives a still a one-frame GIF", async () => {
    const clip = {
      ...solidClip([
        [255, 0, 0],
        [0, 255, 0],
        [0, 0, 255],
      ]),
      delaysMs: [100, 250, 40],
    };
    expect((await sharp(await encoder.gif(clip), { animated: true }).metadata()).delay).toEqual([100, 250, 40]);
    const still = await sharp(await encoder.gif(solidClip([[10, 20, 30]])), { animated: true }).metadata();
    expect({ format: still.format, width: still.width, height: still.height, pages: still.pages ?? 1 }).toEqual({
      format: 'gif',
      width: 40,
      height: 20,
      pages: 1,
    });
  });

  it('stores only what changed from one frame to the next', async () => {
    const width = 160;
    const height = 90;
    const noise = Buffer.alloc(width * height * 4);
    for (let i = 0; i < noise.length; i++) noise[i] = i % 4 === 3 ? 255 : (i * 2654435761) >>> 24;
    const moved = Buffer.from(noise);
    moved.fill(255, 0, width * 4 * 10);
    const one = await encoder.gif({ width, height, frames: [noise], delaysMs: [100] });
    const ten = await encoder.gif({
      width,
      height,
      frames: [...Array.from({ length: 9 }, () => noise), moved],
      delaysMs: Array.from({ length: 10 }, () => 100),
    });
    expect((await sharp(ten, { animated: true }).metadata()).pages).toBe(10);
    expect(ten.length).toBeLessThan(one.length * 2);
  });

  it.each([
    ['a video (VP8)', 'webm', () => makeWebm(4, 480, 270, { fps: 15 })],
    ['a video (H.264)', 'mp4', () => makeMp4(2, 320, 240)],
    ['an animated GIF', 'gif', () => makeAnimatedGif(24, 400, 300)],
    ['an animated WebP', 'webp', () => makeAnimatedWebp(8, 200, 100)],
    ['a still', 'png', () => makePng(100, 80)],
  ] as const)(
    'writes a valid GIF of %s whose frames are the palette-mapped frames, pixel for pixel',
    async (_, ext, make) => {
      const input = await file(`input-${Math.random().toString(36).slice(2)}.${ext}`, await make());
      const clip =
        ext === 'webm' || ext === 'mp4' ? await videos.readClip(input, request) : await images.readClip(input, request);
      const gif = await encoder.gif(clip);
      const meta = await sharp(gif, { animated: true }).metadata();
      expect({
        format: meta.format,
        width: meta.width,
        pageHeight: meta.pageHeight ?? meta.height,
        pages: meta.pages ?? 1,
        delay: meta.delay ?? [100],
      }).toEqual({
        format: 'gif',
        width: clip.width,
        pageHeight: clip.height,
        pages: clip.frames.length,
        delay: clip.delaysMs,
      });
      expect(differing(await shown(gif), clearTransparent(await paletteMapped(clip)))).toBe(0);
    },
  );

  it('keeps transparent pixels transparent, frame after frame, over the same palette mapping', async () => {
    // a square of colour moving over a transparent background, and a hole opening in a red frame
    const width = 24;
    const height = 16;
    const frames = Array.from({ length: 6 }, (_, f) => {
      const frame = Buffer.alloc(width * height * 4);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const inSquare = x >= f * 3 && x < f * 3 + 6 && y >= 4 && y < 10;
          const opaque = f >= 4 ? !(x > 8 && x < 14 && y > 4 && y < 12) || f === 5 : inSquare;
          if (opaque) frame.set([inSquare ? 20 * f : 250, 40, inSquare ? 200 : 10, 255], (y * width + x) * 4);
        }
      }
      return frame;
    });
    const clip: Clip = { width, height, frames, delaysMs: frames.map(() => 100) };
    const gif = await encoder.gif(clip);
    const decoded = await shown(gif);
    expect(differing(decoded, clearTransparent(await paletteMapped(clip)))).toBe(0);
    // the transparent background really is transparent in the first frames
    expect(decoded[3]).toBe(0);
  });

  it("keeps a thinned animation's own timing: frames shorter than 1/fps fold into the one before", async () => {
    const delays = [30, 30, 50, 200, 40, 40, 40, 300, 100];
    const pages = delays.map((_, i) => Buffer.alloc(64 * 48 * 3, (i * 29) & 0xff));
    const animation = await sharp(Buffer.concat(pages), {
      raw: { width: 64, height: 48 * pages.length, channels: 3, pageHeight: 48 },
    })
      .gif({ delay: delays, loop: 0 })
      .toBuffer();
    const clip = await images.readClip(await file('thinned.gif', animation), request);
    expect(clip.delaysMs).toEqual([110, 200, 120, 300, 100]);
    expect((await sharp(await encoder.gif(clip), { animated: true }).metadata()).delay).toEqual([
      110, 200, 120, 300, 100,
    ]);
  });

  it('refuses to start a GIF once the job is aborted, and stops ffmpeg when it is aborted during the encode', async () => {
    const reason = new Error('job budget spent');
    await expect(
      encoder.gif(
        solidClip([
          [1, 2, 3],
          [4, 5, 6],
        ]),
        AbortSignal.abort(reason),
      ),
    ).rejects.toThrow(reason);
    const controller = new AbortController();
    const running = encoder.gif(solidClip(Array.from({ length: 60 }, (_, i) => [i, 2 * i, 3 * i])), controller.signal);
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  it('encodes the first frame as a PNG', async () => {
    const png = await encoder.png(
      solidClip([
        [10, 20, 30],
        [200, 200, 200],
      ]),
    );
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect({ width: info.width, height: info.height }).toEqual({ width: 40, height: 20 });
    expect([...data.subarray(0, 3)]).toEqual([10, 20, 30]);
  });

  it("encodes every frame into a looping animated WebP with the clip's timing and size", async () => {
    const webp = await encoder.webp(
      solidClip(
        [
          [255, 0, 0],
          [0, 255, 0],
          [0, 0, 255],
        ],
        200,
      ),
    );
    const meta = await sharp(webp, { animated: true }).metadata();
    expect({
      format: meta.format,
      width: meta.width,
      pageHeight: meta.pageHeight,
      pages: meta.pages,
      loop: meta.loop,
      delay: meta.delay,
    }).toEqual({
      format: 'webp',
      width: 40,
      pageHeight: 20,
      pages: 3,
      loop: 0,
      delay: [200, 200, 200],
    });
    const { data, info } = await sharp(webp, { animated: true }).raw().toBuffer({ resolveWithObject: true });
    const pixelOfPage = (page: number): number[] => [
      ...data.subarray(page * 40 * 20 * info.channels, page * 40 * 20 * info.channels + 3),
    ];
    expect(pixelOfPage(0)[0]).toBeGreaterThan(200);
    expect(pixelOfPage(1)[1]).toBeGreaterThan(200);
    expect(pixelOfPage(2)[2]).toBeGreaterThan(200);
  });

  it('encodes a one-frame clip as a still WebP', async () => {
    const webp = await encoder.webp(solidClip([[10, 200, 30]]));
    const meta = await sharp(webp, { animated: true }).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, pages: meta.pages ?? 1 }).toEqual({
      format: 'webp',
      width: 40,
      height: 20,
      pages: 1,
    });
  });

  it('refuses to start a WebP once the job is aborted', async () => {
    const reason = new Error('job budget spent');
    await expect(
      encoder.webp(
        solidClip([
          [1, 2, 3],
          [4, 5, 6],
        ]),
        AbortSignal.abort(reason),
      ),
    ).rejects.toThrow(reason);
  });

  it('hashes the first frame with ThumbHash: its colour and aspect ratio come back from the hash', async () => {
    const hash = await encoder.thumbhash(
      solidClip([
        [200, 40, 40],
        [0, 0, 255],
      ]),
    );
    expect(hash.length).toBeGreaterThan(4);
    expect(hash.length).toBeLessThanOrEqual(25);
    const average = thumbHashToAverageRGBA(hash);
    expect(average.r).toBeGreaterThan(0.6);
    expect(average.b).toBeLessThan(0.3);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(2, 0);
  });
});
