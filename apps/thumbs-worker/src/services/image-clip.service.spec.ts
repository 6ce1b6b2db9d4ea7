import { describe, expect, it } from 'vitest';
import type { DecodedFrames, ImageDecode, ImageProbe } from '../domain/clip-plan.rules.js';
import { UnsupportedMediaError } from '../domain/thumbnail.errors.js';
import { ImageClipService } from './image-clip.service.js';

const request = { box: 320, maxFps: 10, maxFrames: 60, clipSeconds: 3, maxInputPixels: 100_000_000 };

/** A fake repository: answers `probe`, and decodes one frame per page asked for (one for a still). */
function fakeImages(probe: ImageProbe) {
  const decodes: ImageDecode[] = [];
  return {
    decodes,
    repository: {
      probe: () => Promise.resolve(probe),
      decode: (_file: string, decode: ImageDecode): Promise<DecodedFrames> => {
        decodes.push(decode);
        const count = decode.pages?.count ?? 1;
        const frames = Array.from({ length: count }, (_, i) => Buffer.from([i]));
        return Promise.resolve({ width: decode.width, height: decode.height, frames });
      },
    },
  };
}

describe('ImageClipService', () => {
  it("decodes only the animation's window, fitted into the box, and thins it to the clip", async () => {
    const { repository, decodes } = fakeImages({
      format: 'webp',
      width: 640,
      pageHeight: 640,
      pages: 120,
      delaysMs: Array(120).fill(50),
    });
    const clip = await new ImageClipService(repository).readClip('in.webp', request);
    // 6 s of 50 ms pages: 3 s from 2 s in, then every second page folded into the one before it (10 fps)
    expect(decodes).toEqual([
      { pages: { start: 40, count: 60 }, width: 320, height: 320, limitInputPixels: 640 * 640 * 60 },
    ]);
    expect(clip.frames).toHaveLength(30);
    expect(clip.delaysMs).toEqual(Array(30).fill(100));
    expect({ width: clip.width, height: clip.height }).toEqual({ width: 320, height: 320 });
  });

  it('decodes a still once', async () => {
    const { repository, decodes } = fakeImages({
      format: 'jpeg',
      width: 1000,
      pageHeight: 500,
      pages: undefined,
      delaysMs: undefined,
    });
    const clip = await new ImageClipService(repository).readClip('in.jpg', request);
    expect(decodes).toEqual([{ width: 320, height: 160, limitInputPixels: request.maxInputPixels }]);
    expect(clip).toEqual({ width: 320, height: 160, frames: [Buffer.from([0])], delaysMs: [100] });
  });

  it('refuses what it does not decode before decoding anything', async () => {
    const { repository, decodes } = fakeImages({
      format: 'svg',
      width: 10,
      pageHeight: 10,
      pages: 1,
      delaysMs: undefined,
    });
    await expect(new ImageClipService(repository).readClip('in.png', request)).rejects.toThrow(
      new UnsupportedMediaError('unsupported image format "svg"'),
    );
    expect(decodes).toEqual([]);
  });
});
