import { describe, expect, it } from 'vitest';
import {
  DISPOSE_CLEAR,
  DISPOSE_KEEP,
  gifFramesOf,
  indexedClipOfPal8,
  pal8FrameBytes,
  TRANSPARENT_INDEX,
} from './gif-frames.rules.js';

const T = TRANSPARENT_INDEX;

/** A palette as ffmpeg writes it: entry n is B=n, G=2n, R=3n (mod 256), opaque; the last one transparent. */
function palette(): Buffer {
  const bytes = Buffer.alloc(1024);
  for (let n = 0; n < 256; n++) bytes.set([n, (2 * n) & 0xff, (3 * n) & 0xff, n === T ? 0 : 255], n * 4);
  return bytes;
}

const pal8Of = (frames: number[][], pal = palette()): Buffer =>
  Buffer.concat(frames.flatMap((frame) => [Buffer.from(frame), pal]));

describe('indexedClipOfPal8', () => {
  it("splits ffmpeg's pal8 output into frames of indices and one RGB colour table", () => {
    const clip = indexedClipOfPal8(
      pal8Of([
        [1, 2, 3, 4, 5, 6],
        [6, 5, 4, 3, 2, T],
      ]),
      3,
      2,
    );
    expect(clip.frames.map((frame) => [...frame])).toEqual([
      [1, 2, 3, 4, 5, 6],
      [6, 5, 4, 3, 2, T],
    ]);
    expect(clip.colorTable.length).toBe(768);
    // B, G, R, A in the palette; R, G, B in the table
    expect([...clip.colorTable.subarray(3 * 7, 3 * 7 + 3)]).toEqual([21, 14, 7]);
    expect(pal8FrameBytes(3, 2)).toBe(6 + 1024);
  });

  it('refuses output that is not whole frames, a palette per frame, or a palette without the transparent entry', () => {
    const raw = pal8Of([[1, 2, 3, 4, 5, 6]]);
    expect(() => indexedClipOfPal8(raw.subarray(0, raw.length - 1), 3, 2)).toThrow('is not whole 3×2 frames');
    expect(() => indexedClipOfPal8(Buffer.alloc(0), 3, 2)).toThrow('is not whole 3×2 frames');
    const other = palette();
    other[0] = 99;
    expect(() => indexedClipOfPal8(Buffer.concat([raw, Buffer.from([1, 2, 3, 4, 5, 6]), other]), 3, 2)).toThrow(
      'frame 2 has a palette of its own',
    );
    const opaque = palette();
    opaque[T * 4 + 3] = 255;
    expect(() => indexedClipOfPal8(pal8Of([[1, 2, 3, 4, 5, 6]], opaque), 3, 2)).toThrow(
      'palette entry 255 is not transparent',
    );
  });
});

describe('gifFramesOf', () => {
  it('stores the first frame whole and, after it, only the pixels whose index changed, over a frame left in place', () => {
    const frames = [
      [1, 2, 3, 4],
      [1, 9, 3, 4],
      [1, 9, 3, 4],
      [5, 6, 7, 8],
    ].map((f) => Uint8Array.from(f));
    expect(gifFramesOf(frames).map((f) => ({ pixels: [...f.pixels], disposal: f.disposal }))).toEqual([
      { pixels: [1, 2, 3, 4], disposal: DISPOSE_KEEP },
      { pixels: [T, 9, T, T], disposal: DISPOSE_KEEP },
      { pixels: [T, T, T, T], disposal: DISPOSE_KEEP },
      { pixels: [5, 6, 7, 8], disposal: DISPOSE_KEEP },
    ]);
  });

  it('clears the frame before one with transparent pixels of its own, which is then stored whole', () => {
    const frames = [
      [1, 2, 3, 4],
      [1, T, 3, 4],
      [1, T, 3, 5],
      [1, 2, 3, 5],
    ].map((f) => Uint8Array.from(f));
    expect(gifFramesOf(frames).map((f) => ({ pixels: [...f.pixels], disposal: f.disposal }))).toEqual([
      { pixels: [1, 2, 3, 4], disposal: DISPOSE_CLEAR },
      { pixels: [1, T, 3, 4], disposal: DISPOSE_CLEAR },
      { pixels: [1, T, 3, 5], disposal: DISPOSE_KEEP },
      // drawn over frame 3 as it was shown: its transparent pixel is a change
      { pixels: [T, 2, T, T], disposal: DISPOSE_KEEP },
    ]);
  });

  it('clears the last frame when the first has transparent pixels, so the loop starts on a clear canvas', () => {
    const frames = [
      [T, 1],
      [2, 1],
    ].map((f) => Uint8Array.from(f));
    expect(gifFramesOf(frames).map((f) => f.disposal)).toEqual([DISPOSE_KEEP, DISPOSE_CLEAR]);
    expect(
      gifFramesOf([Uint8Array.from([1, 2])]).map((f) => ({ pixels: [...f.pixels], disposal: f.disposal })),
    ).toEqual([{ pixels: [1, 2], disposal: DISPOSE_KEEP }]);
  });
});
