import { describe, expect, it } from 'vitest';
import { clipFps, fitInside, refuseOverPixelLimit, representativeStart, videoClipStart } from './clip.rules.js';
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

describe('videoClipStart', () => {
  const everyFourSeconds = [0, 4.267, 8.533];
  it('starts at the keyframe nearest a third in, before or after it', () => {
    expect(videoClipStart(10, 3, everyFourSeconds)).toEqual({ seconds: 4.267, atKeyframe: true });
    expect(videoClipStart(30, 3, [0, 8.5, 12.8, 17])).toEqual({ seconds: 8.5, atKeyframe: true });
  });
  it('skips a keyframe that leaves less than a whole clip after it', () => {
    expect(videoClipStart(5, 3, [0, 2.3])).toEqual({ seconds: 5 / 3, atKeyframe: false });
    expect(videoClipStart(5, 3, [0, 1.9])).toEqual({ seconds: 1.9, atKeyframe: true });
  });
  it('skips a keyframe farther than half the representative start from it (an intro, or past the middle)', () => {
    expect(videoClipStart(30, 3, [0, 4, 16])).toEqual({ seconds: 10, atKeyframe: false });
    expect(videoClipStart(30, 3, [0, 5, 16])).toEqual({ seconds: 5, atKeyframe: true });
    expect(videoClipStart(30, 3, [0, 15])).toEqual({ seconds: 15, atKeyframe: true });
  });
  it('takes the representative start when only the first frame is a keyframe, or none is known', () => {
    expect(videoClipStart(10, 3, [0])).toEqual({ seconds: 10 / 3, atKeyframe: false });
    expect(videoClipStart(10, 3, [])).toEqual({ seconds: 10 / 3, atKeyframe: false });
  });
  it('starts a short video or one of unknown length at its beginning', () => {
    expect(videoClipStart(3, 3, [0])).toEqual({ seconds: 0, atKeyframe: true });
    expect(videoClipStart(Number.NaN, 3, [0, 4])).toEqual({ seconds: 0, atKeyframe: true });
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
    expect(() => refuseOverPixelLimit('video', 400, 300, 90_000)).toThrow(
      new UnsupportedMediaError('video is 400×300, over the 90000 pixel limit', { failure: 'tooLarge' }),
    );
    expect(() => refuseOverPixelLimit('image', 400, 300, 90_000)).toThrow(UnsupportedMediaError);
  });
});
