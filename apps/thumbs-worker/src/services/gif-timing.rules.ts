/*
 * ffmpeg writes a GIF at one constant frame rate; a clip's frames may each have their own display
 * time (an animation's thinned pages). These rules walk the GIF's blocks and set every frame's
 * delay in its Graphic Control Extension, so the GIF keeps the clip's timing exactly.
 */

/** GIF delays are centiseconds; gif-encoder-2 rounded the same way. */
export const gifDelayOf = (ms: number): number => Math.min(0xffff, Math.max(0, Math.round(ms / 10)));

const EXTENSION = 0x21;
const GRAPHIC_CONTROL = 0xf9;
const IMAGE = 0x2c;
const TRAILER = 0x3b;

/** Bytes of the colour table a packed field announces (flag in bit 7, size in bits 0–2). */
const colorTableBytes = (packed: number): number => (packed & 0x80 ? 3 * (1 << ((packed & 7) + 1)) : 0);

function skipSubBlocks(gif: Buffer, at: number): number {
  let offset = at;
  while (offset < gif.length && gif[offset] !== 0) offset += gif[offset]! + 1;
  if (offset >= gif.length) throw new Error('GIF is truncated');
  return offset + 1;
}

/**
 * A copy of `gif` whose n-th frame is shown for `delaysMs[n]`. Throws when the GIF does not have
 * exactly one frame per delay, each after its own Graphic Control Extension.
 */
export function withGifDelays(gif: Buffer, delaysMs: readonly number[]): Buffer {
  if (gif.length < 13 || gif.toString('latin1', 0, 3) !== 'GIF') throw new Error('not a GIF');
  const out = Buffer.from(gif);
  let at = 13 + colorTableBytes(out[10]!);
  let frames = 0;
  let delayAt: number | null = null;
  while (at < out.length && out[at] !== TRAILER) {
    if (out[at] === EXTENSION) {
      if (out[at + 1] === GRAPHIC_CONTROL) delayAt = at + 4;
      at = skipSubBlocks(out, at + 2);
    } else if (out[at] === IMAGE) {
      if (delayAt === null || frames >= delaysMs.length) throw new Error(`GIF frame ${frames + 1} has no delay to set`);
      out.writeUInt16LE(gifDelayOf(delaysMs[frames]!), delayAt);
      delayAt = null;
      frames++;
      // descriptor (10 bytes), local colour table, LZW minimum code size, then the data sub-blocks
      at = skipSubBlocks(out, at + 10 + colorTableBytes(out[at + 9]!) + 1);
    } else {
      throw new Error(`unexpected GIF block 0x${out[at]!.toString(16)} at byte ${at}`);
    }
  }
  if (frames !== delaysMs.length) throw new Error(`GIF has ${frames} frames, the clip ${delaysMs.length}`);
  return out;
}
