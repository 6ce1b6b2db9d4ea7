import { createRequire } from 'node:module';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DISPOSE_CLEAR, DISPOSE_KEEP, TRANSPARENT_INDEX, type IndexedClip } from '../domain/gif-frames.rules.js';
import { encodeIndexedGif } from './indexed-gif-encoder.repository.js';

/*
 * The guard of the gif-encoder-2 subclass: it replaces internals of exactly 1.0.5, so an upgrade
 * must fail here (the version, then the bytes it writes and what a decoder shows) before it can
 * write a wrong GIF.
 */

const T = TRANSPARENT_INDEX;
const WIDTH = 16;
const HEIGHT = 8;

/** Entry n is R=n, G=255-n, B=(7n mod 256); entry 255 (transparent) is whatever palettegen puts there. */
const colorTable = Uint8Array.from({ length: 768 }, (_, i) => {
  const n = Math.floor(i / 3);
  return [n, 255 - n, (7 * n) & 0xff][i % 3]!;
});

/**
 * Five frames: noise, a moved square, the same again, one with transparent pixels of its own,
 * then opaque again. Indices 0–254 are colours; 255 is transparent.
 */
function clip(): IndexedClip {
  let seed = 12345;
  const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) % 255;
  const first = Uint8Array.from({ length: WIDTH * HEIGHT }, random);
  const moved = Uint8Array.from(first);
  for (let y = 2; y < 6; y++) moved.fill(200, y * WIDTH + 4, y * WIDTH + 9);
  const holed = Uint8Array.from(moved);
  for (let x = 0; x < WIDTH; x += 3) holed[WIDTH * 3 + x] = T;
  const last = Uint8Array.from(first).fill(17, 0, WIDTH);
  return { width: WIDTH, height: HEIGHT, frames: [first, moved, Uint8Array.from(moved), holed, last], colorTable };
}

const DELAYS = [100, 250, 40, 1000, 70];

/** What a viewer must see: each pixel's colour from the table, transparent for index 255. */
const expectedRgba = (frames: readonly Uint8Array[]): Buffer =>
  Buffer.concat(
    frames.map((frame) =>
      Buffer.from(
        Array.from(frame).flatMap((index) =>
          index === T
            ? [0, 0, 0, 0]
            : [colorTable[index * 3]!, colorTable[index * 3 + 1]!, colorTable[index * 3 + 2]!, 255],
        ),
      ),
    ),
  );

interface Block {
  disposal: number;
  transparentFlag: boolean;
  delayCs: number;
  transparentIndex: number;
  descriptor: { left: number; top: number; width: number; height: number; packed: number };
  minCodeSize: number;
}

/** Walks the GIF's blocks after the global table; throws on anything it does not expect. */
function framesOf(gif: Buffer, at: number): { frames: Block[]; extensions: string[]; end: number } {
  const frames: Block[] = [];
  const extensions: string[] = [];
  let gce: Omit<Block, 'descriptor' | 'minCodeSize'> | undefined;
  const skipSubBlocks = (offset: number): number => {
    while (gif[offset] !== 0) offset += gif[offset]! + 1;
    return offset + 1;
  };
  while (gif[at] !== 0x3b) {
    if (gif[at] === 0x21 && gif[at + 1] === 0xf9) {
      expect(gif[at + 2]).toBe(4);
      gce = {
        disposal: (gif[at + 3]! >> 2) & 7,
        transparentFlag: (gif[at + 3]! & 1) === 1,
        delayCs: gif.readUInt16LE(at + 4),
        transparentIndex: gif[at + 6]!,
      };
      at = skipSubBlocks(at + 2);
    } else if (gif[at] === 0x21 && gif[at + 1] === 0xff) {
      extensions.push(
        gif.toString('latin1', at + 3, at + 3 + gif[at + 2]!) + ':' + gif.readUInt16LE(at + 3 + gif[at + 2]! + 2),
      );
      at = skipSubBlocks(at + 2);
    } else if (gif[at] === 0x2c) {
      if (!gce) throw new Error(`frame ${frames.length + 1} has no Graphic Control Extension`);
      const descriptor = {
        left: gif.readUInt16LE(at + 1),
        top: gif.readUInt16LE(at + 3),
        width: gif.readUInt16LE(at + 5),
        height: gif.readUInt16LE(at + 7),
        packed: gif[at + 9]!,
      };
      frames.push({ ...gce, descriptor, minCodeSize: gif[at + 10]! });
      gce = undefined;
      at = skipSubBlocks(at + 11);
    } else {
      throw new Error(`unexpected block 0x${gif[at]!.toString(16)} at byte ${at}`);
    }
  }
  return { frames, extensions, end: at + 1 };
}

describe('encodeIndexedGif (gif-encoder-2 fed palette indices)', () => {
  it('runs on the exact gif-encoder-2 its subclass was written for', () => {
    const { version } = createRequire(import.meta.url)('gif-encoder-2/package.json') as { version: string };
    expect(
      version,
      'indexed-gif-encoder.repository.ts replaces internals of gif-encoder-2 1.0.5: check them against the new version before changing this',
    ).toBe('1.0.5');
  });

  it('writes one global colour table, a loop, and per frame its delay, disposal and transparent index, with no local table', () => {
    const input = clip();
    const gif = encodeIndexedGif(input, DELAYS);
    expect(gif.toString('latin1', 0, 6)).toBe('GIF89a');
    expect({
      width: gif.readUInt16LE(6),
      height: gif.readUInt16LE(8),
      packed: gif[10],
      background: gif[11],
      aspect: gif[12],
    }).toEqual({
      width: WIDTH,
      height: HEIGHT,
      packed: 0xf7,
      background: 0,
      aspect: 0,
    });
    expect(Buffer.compare(gif.subarray(13, 13 + 768), Buffer.from(colorTable))).toBe(0);
    const { frames, extensions, end } = framesOf(gif, 13 + 768);
    expect(end).toBe(gif.length);
    expect(extensions).toEqual(['NETSCAPE2.0:0']);
    expect(frames).toEqual(
      DELAYS.map((ms, i) => ({
        // frame 3 (index 2) comes before the frame with transparent pixels of its own
        disposal: i === 2 ? DISPOSE_CLEAR : DISPOSE_KEEP,
        transparentFlag: true,
        delayCs: ms / 10,
        transparentIndex: T,
        descriptor: { left: 0, top: 0, width: WIDTH, height: HEIGHT, packed: 0 },
        minCodeSize: 8,
      })),
    );
  });

  it('decodes to the palette-mapped frames pixel for pixel, unchanged pixels and all', async () => {
    const input = clip();
    const gif = encodeIndexedGif(input, DELAYS);
    const decoded = await sharp(gif, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect({ width: decoded.info.width, pageHeight: decoded.info.pageHeight, pages: decoded.info.pages }).toEqual({
      width: WIDTH,
      pageHeight: HEIGHT,
      pages: 5,
    });
    const expected = expectedRgba(input.frames);
    // transparent pixels are compared by their alpha alone: their colour is the decoder's
    const clear = (rgba: Buffer): Buffer =>
      Buffer.from(rgba.map((value, i) => (rgba[i - (i % 4) + 3] === 0 ? 0 : value)));
    expect(Buffer.compare(clear(decoded.data), expected)).toBe(0);
    expect((await sharp(gif, { animated: true }).metadata()).delay).toEqual(DELAYS);
  });

  it("refuses a number of delays other than the frames'", () => {
    expect(() => encodeIndexedGif(clip(), [100, 100])).toThrow('the GIF has 5 frames, the clip 2');
  });
});
