import { describe, expect, it } from 'vitest';
import { MP4_STILL_SECONDS, mp4Filter, mp4FrameSize, mp4Timeline } from './mp4-frames.rules.js';

const durationMs = (timeline: { rate: number; frames: number[] }): number =>
  (timeline.frames.length * 1000) / timeline.rate;

describe('mp4Timeline', () => {
  it('encodes a clip of equal delays frame for frame at 1000/delay fps (every video)', () => {
    expect(mp4Timeline([100, 100, 100])).toEqual({ fps: '1000/100', rate: 10, frames: [0, 1, 2] });
    const slow = mp4Timeline(Array(4).fill(133));
    expect(slow.fps).toBe('1000/133');
    expect(slow.frames).toEqual([0, 1, 2, 3]);
    expect(durationMs(slow)).toBeCloseTo(532, 6);
  });

  it('makes a still MP4_STILL_SECONDS long', () => {
    const still = mp4Timeline([100]);
    expect(still.frames.every((frame) => frame === 0)).toBe(true);
    expect(durationMs(still)).toBe(MP4_STILL_SECONDS * 1000);
  });

  it("samples varied delays at the shortest frame's rate, each frame shown for its time within a tick, none lost", () => {
    const timeline = mp4Timeline([100, 300, 200]);
    expect(timeline).toEqual({ fps: '1000/100', rate: 10, frames: [0, 1, 1, 1, 2, 2] });
    const uneven = mp4Timeline([120, 250, 130, 500]);
    expect(durationMs(uneven)).toBeCloseTo(1000, -2);
    expect(new Set(uneven.frames)).toEqual(new Set([0, 1, 2, 3]));
    // frames stay in order
    expect(uneven.frames).toEqual([...uneven.frames].sort((a, b) => a - b));
  });

  it('samples at most 50 fps, whatever the shortest delay', () => {
    const timeline = mp4Timeline([5, 1000]);
    expect(timeline.rate).toBe(50);
    expect(timeline.frames.length).toBe(Math.round(1005 / 20));
  });

  it('samples a frame that says it stays for minutes into at most 600 frames, keeping the length', () => {
    const timeline = mp4Timeline([20, 655_350, 100]);
    expect(timeline.frames.length).toBeLessThanOrEqual(600);
    expect(durationMs(timeline)).toBeCloseTo(655_470, -3);
    // the 100 ms frame after the long one is shorter than a tick now: it may drop
    expect(new Set(timeline.frames.slice(1))).toEqual(new Set([1]));
  });

  it('refuses an empty clip', () => {
    expect(() => mp4Timeline([])).toThrow('clip has no frames');
  });
});

describe('mp4FrameSize', () => {
  it('keeps even sides, drops the last row or column of an odd one, pads a one-pixel side to two', () => {
    expect(mp4FrameSize(320, 180)).toEqual({ width: 320, height: 180 });
    expect(mp4FrameSize(320, 213)).toEqual({ width: 320, height: 212 });
    expect(mp4FrameSize(179, 320)).toEqual({ width: 178, height: 320 });
    expect(mp4FrameSize(1, 3)).toEqual({ width: 2, height: 2 });
  });
});

describe('mp4Filter', () => {
  it('composites transparency over black, crops or pads to even, converts to yuv420p in BT.601 limited range', () => {
    expect(mp4Filter(320, 180)).toBe('premultiply=inplace=1,scale=out_color_matrix=bt601:out_range=tv,format=yuv420p');
    expect(mp4Filter(320, 213)).toBe(
      'premultiply=inplace=1,crop=320:212:0:0,scale=out_color_matrix=bt601:out_range=tv,format=yuv420p',
    );
    expect(mp4Filter(1, 3)).toBe(
      'premultiply=inplace=1,crop=1:2:0:0,pad=2:2:0:0:black,scale=out_color_matrix=bt601:out_range=tv,format=yuv420p',
    );
  });
});
