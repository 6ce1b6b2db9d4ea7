/*
 * A clip's palette-mapped frames as ffmpeg's paletteuse writes them (`-f rawvideo -pix_fmt pal8`),
 * and the frames of the GIF made from them: unchanged pixels transparent over the previous frame
 * (disposal 1), so the GIF stores only what changed.
 */

/** Bytes of the palette after each frame's indices: 256 entries of B, G, R, A. */
const PAL8_PALETTE_BYTES = 1024;

/** palettegen's reserved entry (`reserve_transparent`, its default): alpha 0, the last index. */
export const TRANSPARENT_INDEX = 255;

/** GIF disposal methods: leave the frame for the next to draw over, or clear its area to transparent. */
export const DISPOSE_KEEP = 1;
export const DISPOSE_CLEAR = 2;

/** Frames of palette indices (one byte a pixel) over one palette for the whole clip. */
export interface IndexedClip {
  width: number;
  height: number;
  frames: Uint8Array[];
  /** 256 RGB triplets, 768 bytes: the GIF's global colour table. */
  colorTable: Uint8Array;
}

/** A frame as the GIF stores it: the indices to write, and what happens to it before the next. */
export interface GifFrame {
  pixels: Uint8Array;
  disposal: typeof DISPOSE_KEEP | typeof DISPOSE_CLEAR;
}

/** Bytes of one frame of pal8 output: its indices, then its palette. */
export const pal8FrameBytes = (width: number, height: number): number => width * height + PAL8_PALETTE_BYTES;

/**
 * Splits ffmpeg's pal8 output into frames and the clip's colour table. Throws unless it holds
 * whole frames, every one with the same palette, whose last entry is the transparent one: the GIF
 * has one colour table, and index 255 marks the pixels it leaves as they were.
 */
export function indexedClipOfPal8(raw: Uint8Array, width: number, height: number): IndexedClip {
  const pixels = width * height;
  const frameBytes = pal8FrameBytes(width, height);
  if (raw.length === 0 || raw.length % frameBytes !== 0)
    throw new Error(`pal8 output of ${raw.length} bytes is not whole ${width}×${height} frames`);
  const palette = raw.subarray(pixels, frameBytes);
  if (palette[TRANSPARENT_INDEX * 4 + 3] !== 0)
    throw new Error(`palette entry ${TRANSPARENT_INDEX} is not transparent (palettegen's reserve_transparent)`);
  const frames: Uint8Array[] = [];
  for (let at = 0; at < raw.length; at += frameBytes) {
    if (at > 0 && Buffer.compare(raw.subarray(at + pixels, at + frameBytes), palette) !== 0)
      throw new Error(`frame ${frames.length + 1} has a palette of its own`);
    frames.push(raw.subarray(at, at + pixels));
  }
  const colorTable = new Uint8Array(768);
  for (let entry = 0; entry < 256; entry++) {
    colorTable[entry * 3] = palette[entry * 4 + 2]!;
    colorTable[entry * 3 + 1] = palette[entry * 4 + 1]!;
    colorTable[entry * 3 + 2] = palette[entry * 4]!;
  }
  return { width, height, frames, colorTable };
}

/**
 * The GIF's frames. A frame is drawn over the one before (disposal 1) and stores as transparent
 * every pixel that index is already showing. A frame with transparent pixels of its own (an
 * animation with alpha) cannot be drawn over the one before, which would show through them: the
 * one before clears itself (disposal 2) and it is stored whole. The last frame clears itself when
 * the first has transparent pixels, for the loop.
 */
export function gifFramesOf(frames: readonly Uint8Array[]): GifFrame[] {
  const transparent = frames.map((frame) => frame.includes(TRANSPARENT_INDEX));
  return frames.map((frame, i) => {
    const disposal = transparent[(i + 1) % frames.length] ? DISPOSE_CLEAR : DISPOSE_KEEP;
    const previous = frames[i - 1];
    if (!previous || transparent[i]) return { pixels: frame, disposal };
    const pixels = new Uint8Array(frame.length);
    for (let p = 0; p < frame.length; p++) {
      const index = frame[p]!;
      pixels[p] = index === previous[p] ? TRANSPARENT_INDEX : index;
    }
    return { pixels, disposal };
  });
}
