import { describe, expect, it } from 'vitest';
import { gifDelayOf, withGifDelays } from './gif-timing.rules.js';

/*
 * A 1×1 GIF89a of `pages` frames, each shown 100 ms: header, screen descriptor with a 2-colour
 * global table, then per frame a Graphic Control Extension, an image descriptor and its LZW data.
 */
const HEADER = [...Buffer.from('GIF89a'), 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
const FRAME = [0x21, 0xf9, 4, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0];
const gifOf = (pages: number): Buffer => Buffer.from([...HEADER, ...Array.from({ length: pages }, () => FRAME).flat(), 0x3b]);
/** Each frame's delay, read back at its known offset, in ms. */
const delaysOf = (gif: Buffer, pages: number): number[] => Array.from({ length: pages }, (_, i) => gif.readUInt16LE(HEADER.length + i * FRAME.length + 4) * 10);

describe('withGifDelays', () => {
  it('sets each frame\'s delay, in centiseconds, and leaves the input as it was', () => {
    const gif = gifOf(3);
    const timed = withGifDelays(gif, [40, 250, 1000]);
    expect(delaysOf(timed, 3)).toEqual([40, 250, 1000]);
    expect(delaysOf(gif, 3)).toEqual([100, 100, 100]);
    expect(timed.length).toBe(gif.length);
  });

  it('rounds to the nearest centisecond, within what a GIF can say', () => {
    expect([gifDelayOf(133), gifDelayOf(4), gifDelayOf(-5), gifDelayOf(1e9)]).toEqual([13, 0, 0, 0xffff]);
  });

  it('refuses a GIF with another number of frames than delays, a truncated GIF and other bytes', () => {
    const gif = gifOf(2);
    expect(() => withGifDelays(gif, [100, 100, 100])).toThrow('GIF has 2 frames, the clip 3');
    expect(() => withGifDelays(gif, [100])).toThrow('GIF frame 2 has no delay to set');
    expect(() => withGifDelays(gif.subarray(0, gif.length - 3), [100, 100])).toThrow('GIF is truncated');
    expect(() => withGifDelays(Buffer.from('not a gif at all'), [100])).toThrow('not a GIF');
  });
});
