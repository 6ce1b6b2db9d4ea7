import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { thumbHashToAverageRGBA, thumbHashToApproximateAspectRatio } from 'thumbhash';
import { ThumbnailEncoderRepository } from '../../src/repositories/thumbnail-encoder.repository.js';
import type { Clip } from '../../src/services/clip.rules.js';

const encoder = new ThumbnailEncoderRepository({ ffmpegPath: 'ffmpeg' });

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
  it('encodes every frame into a looping GIF with the clip\'s timing', async () => {
    const gif = await encoder.gif(solidClip([[255, 0, 0], [0, 255, 0], [0, 0, 255]], 200));
    const meta = await sharp(gif, { animated: true }).metadata();
    expect({ format: meta.format, width: meta.width, pageHeight: meta.pageHeight, pages: meta.pages, loop: meta.loop, delay: meta.delay }).toEqual({
      format: 'gif', width: 40, pageHeight: 20, pages: 3, loop: 0, delay: [200, 200, 200],
    });
    // one palette shared by all frames still renders each colour
    const { data, info } = await sharp(gif, { animated: true }).raw().toBuffer({ resolveWithObject: true });
    const pixelOfPage = (page: number): number[] => [...data.subarray(page * 40 * 20 * info.channels, page * 40 * 20 * info.channels + 3)];
    expect(pixelOfPage(0)[0]).toBeGreaterThan(200);
    expect(pixelOfPage(1)[1]).toBeGreaterThan(200);
    expect(pixelOfPage(2)[2]).toBeGreaterThan(200);
  });

  it('keeps each frame\'s own delay, and gives a still a one-frame GIF', async () => {
    const clip = { ...solidClip([[255, 0, 0], [0, 255, 0], [0, 0, 255]]), delaysMs: [100, 250, 40] };
    expect((await sharp(await encoder.gif(clip), { animated: true }).metadata()).delay).toEqual([100, 250, 40]);
    const still = await sharp(await encoder.gif(solidClip([[10, 20, 30]])), { animated: true }).metadata();
    expect({ format: still.format, width: still.width, height: still.height, pages: still.pages ?? 1 }).toEqual({ format: 'gif', width: 40, height: 20, pages: 1 });
  });

  it('stores only what changed from one frame to the next', async () => {
    const width = 160;
    const height = 90;
    const noise = Buffer.alloc(width * height * 4);
    for (let i = 0; i < noise.length; i++) noise[i] = i % 4 === 3 ? 255 : (i * 2654435761) >>> 24;
    const moved = Buffer.from(noise);
    moved.fill(255, 0, width * 4 * 10);
    const one = await encoder.gif({ width, height, frames: [noise], delaysMs: [100] });
    const ten = await encoder.gif({ width, height, frames: [...Array.from({ length: 9 }, () => noise), moved], delaysMs: Array.from({ length: 10 }, () => 100) });
    expect((await sharp(ten, { animated: true }).metadata()).pages).toBe(10);
    expect(ten.length).toBeLessThan(one.length * 2);
  });

  it('refuses to start a GIF once the job is aborted, and stops ffmpeg when it is aborted during the encode', async () => {
    const reason = new Error('job budget spent');
    await expect(encoder.gif(solidClip([[1, 2, 3], [4, 5, 6]]), AbortSignal.abort(reason))).rejects.toThrow(reason);
    const controller = new AbortController();
    const running = encoder.gif(solidClip(Array.from({ length: 60 }, (_, i) => [i, 2 * i, 3 * i])), controller.signal);
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  it('encodes the first frame as a PNG', async () => {
    const png = await encoder.png(solidClip([[10, 20, 30], [200, 200, 200]]));
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect({ width: info.width, height: info.height }).toEqual({ width: 40, height: 20 });
    expect([...data.subarray(0, 3)]).toEqual([10, 20, 30]);
  });

  it('encodes every frame into a looping animated WebP with the clip\'s timing and size', async () => {
    const webp = await encoder.webp(solidClip([[255, 0, 0], [0, 255, 0], [0, 0, 255]], 200));
    const meta = await sharp(webp, { animated: true }).metadata();
    expect({ format: meta.format, width: meta.width, pageHeight: meta.pageHeight, pages: meta.pages, loop: meta.loop, delay: meta.delay }).toEqual({
      format: 'webp', width: 40, pageHeight: 20, pages: 3, loop: 0, delay: [200, 200, 200],
    });
    const { data, info } = await sharp(webp, { animated: true }).raw().toBuffer({ resolveWithObject: true });
    const pixelOfPage = (page: number): number[] => [...data.subarray(page * 40 * 20 * info.channels, page * 40 * 20 * info.channels + 3)];
    expect(pixelOfPage(0)[0]).toBeGreaterThan(200);
    expect(pixelOfPage(1)[1]).toBeGreaterThan(200);
    expect(pixelOfPage(2)[2]).toBeGreaterThan(200);
  });

  it('encodes a one-frame clip as a still WebP', async () => {
    const webp = await encoder.webp(solidClip([[10, 200, 30]]));
    const meta = await sharp(webp, { animated: true }).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, pages: meta.pages ?? 1 }).toEqual({ format: 'webp', width: 40, height: 20, pages: 1 });
  });

  it('refuses to start a WebP once the job is aborted', async () => {
    const reason = new Error('job budget spent');
    await expect(encoder.webp(solidClip([[1, 2, 3], [4, 5, 6]]), AbortSignal.abort(reason))).rejects.toThrow(reason);
  });

  it('hashes the first frame with ThumbHash: its colour and aspect ratio come back from the hash', async () => {
    const hash = await encoder.thumbhash(solidClip([[200, 40, 40], [0, 0, 255]]));
    expect(hash.length).toBeGreaterThan(4);
    expect(hash.length).toBeLessThanOrEqual(25);
    const average = thumbHashToAverageRGBA(hash);
    expect(average.r).toBeGreaterThan(0.6);
    expect(average.b).toBeLessThan(0.3);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(2, 0);
  });
});
