import { describe, expect, it } from 'vitest';
import {
  imageClipOf,
  imageClipPlan,
  retryFromTheStart,
  videoClipOf,
  videoClipPlan,
  type ImageProbe,
  type VideoDecode,
  type VideoProbe,
} from './clip-plan.rules.js';
import { UnsupportedMediaError } from './thumbnail.errors.js';

const request = { box: 320, maxFps: 10, maxFrames: 60, clipSeconds: 3, maxInputPixels: 100_000_000 };
const gif = (pages: number, delayMs = 100): ImageProbe => ({
  format: 'gif',
  width: 480,
  pageHeight: 270,
  pages,
  delaysMs: Array(pages).fill(delayMs),
});
const frame = (n: number): Buffer => Buffer.from([n]);

describe('imageClipPlan', () => {
  it('takes 3 s from a third into a 9 s animation (30 of its 90 pages), fitted into the box', () => {
    expect(imageClipPlan(gif(90), request)).toEqual({
      decode: { pages: { start: 30, count: 30 }, width: 320, height: 180, limitInputPixels: 480 * 270 * 30 },
      window: { start: 30, count: 30, delaysMs: Array(30).fill(100) },
    });
  });

  it('shows missing and tiny delays at 100 ms', () => {
    const plan = imageClipPlan({ ...gif(4), delaysMs: [0, 10] }, request);
    expect(plan.window.delaysMs).toEqual([100, 100, 100, 100]);
  });

  it('decodes only the pages the pixel budget affords', () => {
    // 4 × the one-page limit: 4 pages of 129,600 pixels fit a limit of 129,600 × 1
    const plan = imageClipPlan(gif(90), { ...request, maxInputPixels: 480 * 270 });
    expect(plan.decode.pages).toEqual({ start: 30, count: 4 });
    expect(plan.decode.limitInputPixels).toBe(480 * 270 * 4);
  });

  it('decodes a still once, within the pixel limit, never enlarging', () => {
    expect(
      imageClipPlan({ format: 'png', width: 100, pageHeight: 80, pages: undefined, delaysMs: undefined }, request),
    ).toEqual({
      decode: { width: 100, height: 80, limitInputPixels: request.maxInputPixels },
      window: { start: 0, count: 1, delaysMs: [100] },
    });
  });

  it('refuses formats the board does not serve, an image without a size, and one over the pixel limit', () => {
    expect(() => imageClipPlan({ ...gif(1), format: 'svg' }, request)).toThrow(
      new UnsupportedMediaError('unsupported image format "svg"'),
    );
    expect(() => imageClipPlan({ ...gif(1), format: undefined }, request)).toThrow(
      new UnsupportedMediaError('unsupported image format "unknown"'),
    );
    expect(() => imageClipPlan({ ...gif(1), pageHeight: 0 }, request)).toThrow(
      new UnsupportedMediaError('image has no size'),
    );
    expect(() => imageClipPlan(gif(2), { ...request, maxInputPixels: 1000 })).toThrow(
      new UnsupportedMediaError('image is 480×270, over the 1000 pixel limit', { failure: 'tooLarge' }),
    );
  });
});

describe('imageClipOf', () => {
  it("times the decoded pages by the window and thins them to the clip's frame rate", () => {
    const plan = imageClipPlan(gif(9, 50), request);
    const clip = imageClipOf({ width: 320, height: 180, frames: [0, 1, 2, 3].map(frame) }, plan, request);
    // 50 ms pages at ≤ 10 fps: every second page folds into the one before it
    expect(clip).toEqual({ width: 320, height: 180, frames: [frame(0), frame(2)], delaysMs: [100, 100] });
  });

  it('stops at the frame limit', () => {
    const plan = imageClipPlan(gif(90), request);
    const clip = imageClipOf({ width: 1, height: 1, frames: [0, 1, 2].map(frame) }, plan, { ...request, maxFrames: 1 });
    expect(clip.frames).toEqual([frame(0)]);
  });
});

describe('videoClipPlan', () => {
  const probe: VideoProbe = { width: 1920, height: 1080, duration: 30, fps: 30, keyframes: [0, 9.5, 20] };

  it('starts at the keyframe nearest a third in, at ≤ the frame cap, fitted into the box', () => {
    expect(videoClipPlan(probe, request)).toEqual({
      start: { seconds: 9.5, atKeyframe: true },
      seconds: 3,
      fps: 10,
      width: 320,
      height: 180,
      maxFrames: 60,
    });
  });

  it("keeps a slower source's frame rate and a short video's start", () => {
    const plan = videoClipPlan({ ...probe, duration: 2, fps: 4, keyframes: [0] }, request);
    expect({ fps: plan.fps, start: plan.start }).toEqual({ fps: 4, start: { seconds: 0, atKeyframe: true } });
  });

  it('refuses a video over the pixel limit', () => {
    expect(() => videoClipPlan(probe, { ...request, maxInputPixels: 1000 })).toThrow(
      new UnsupportedMediaError('video is 1920×1080, over the 1000 pixel limit', { failure: 'tooLarge' }),
    );
  });
});

describe('retryFromTheStart', () => {
  const decode: VideoDecode = {
    start: { seconds: 10, atKeyframe: false },
    seconds: 3,
    fps: 10,
    width: 320,
    height: 180,
    maxFrames: 60,
  };

  it('decodes again from the very start when nothing came after the seek point', () => {
    expect(retryFromTheStart(decode, 0)).toEqual({ ...decode, start: { seconds: 0, atKeyframe: true } });
  });

  it('does not when frames came, or when the decode began at the start already', () => {
    expect(retryFromTheStart(decode, 1)).toBeUndefined();
    expect(retryFromTheStart({ ...decode, start: { seconds: 0, atKeyframe: true } }, 0)).toBeUndefined();
  });
});

describe('videoClipOf', () => {
  it("shows each frame for one step of the clip's frame rate", () => {
    const decode = videoClipPlan({ width: 320, height: 180, duration: 10, fps: 7, keyframes: [] }, request);
    expect(videoClipOf({ width: 320, height: 180, frames: [frame(0), frame(1)] }, decode)).toEqual({
      width: 320,
      height: 180,
      frames: [frame(0), frame(1)],
      delaysMs: [143, 143],
    });
  });
});
