import { describe, expect, it } from 'vitest';
import { clipFps, fitInside, refuseOverPixelLimit, representativeStart } from './clip.rules.js';
import { UnsupportedMediaError } from './thumbnail.errors.js';

describe('fitInside', () => {
  it('scales the longer side to the box and keeps the aspect ratio', () => {
    expect(fitInside(1280, 720, 320)).toEqual({ width: 320, height: 180 });
    expect(fitInside(720, 1280, 320)).toEqual({ width: 180, height: 320 });
    expect(fitInside(4000, 10, 320)).toEqual({ width: 320, height: 1 });
  });
  it('never enlarges', () => {
    expect(fitInside(100, 50, 320)).toEqual({ width: 100, height: 50 });
  });
});

describe('representativeStart', () => {
  it('starts a third in for long media and keeps the clip inside it', () => {
    expect(representativeStart(30, 3)).toBe(10);
    expect(representativeStart(4, 3)).toBe(1);
  });
  it('takes the whole piece when it is no longer than the clip, or of unknown length', () => {
    expect(representativeStart(3, 3)).toBe(0);
    expect(representativeStart(1.5, 3)).toBe(0);
    expect(representativeStart(Number.NaN, 3)).toBe(0);
  });
});

describe('clipFps', () => {
  it('keeps a slower source rate and caps a faster one', () => {
    expect(clipFps(6, 10)).toBe(6);
    expect(clipFps(29.97, 10)).toBe(10);
  });
  it('uses the cap when the source rate is unknown', () => {
    expect(clipFps(Number.NaN, 10)).toBe(10);
    expect(clipFps(0, 10)).toBe(10);
  });
});

describe('refuseOverPixelLimit', () => {
  it('lets a frame at the limit through', () => {
    expect(() => refuseOverPixelLimit('image', 300, 300, 90_000)).not.toThrow();
  });
  it('refuses a larger one as unsupported media, naming its size and the limit', () => {
    expect(() => refuseOverPixelLimit('video', 400, 300, 90_000)).toThrow(new UnsupportedMediaError('video is 400×300, over the 90000 pixel limit', { failure: 'tooLarge' }));
    expect(() => refuseOverPixelLimit('image', 400, 300, 90_000)).toThrow(UnsupportedMediaError);
  });
});
