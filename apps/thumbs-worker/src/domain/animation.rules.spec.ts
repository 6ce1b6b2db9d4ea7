import { describe, expect, it } from 'vitest';
import { affordablePages, chooseAnimationWindow, effectiveDelay, thinFrames } from './animation.rules.js';

describe('effectiveDelay', () => {
  it('shows missing, zero and tiny delays at 100 ms, as browsers do', () => {
    expect([undefined, 0, 10, 19].map(effectiveDelay)).toEqual([100, 100, 100, 100]);
    expect(effectiveDelay(20)).toBe(20);
    expect(effectiveDelay(70)).toBe(70);
  });
});

describe('chooseAnimationWindow', () => {
  it('takes the pages of the clip length from about a third into a long animation', () => {
    // 90 pages of 100 ms = 9 s: the window starts at 3 s (page 30) and covers 3 s
    expect(chooseAnimationWindow(Array(90).fill(100), 3, 600)).toEqual({
      start: 30,
      count: 30,
      delaysMs: Array(30).fill(100),
    });
  });
  it('takes a short animation whole', () => {
    expect(chooseAnimationWindow([100, 200, 300], 3, 600)).toEqual({ start: 0, count: 3, delaysMs: [100, 200, 300] });
  });
  it('stops at the page budget', () => {
    expect(chooseAnimationWindow(Array(30).fill(100), 3, 4)).toEqual({
      start: 0,
      count: 4,
      delaysMs: [100, 100, 100, 100],
    });
  });
});

describe('affordablePages', () => {
  it('gives four times the one-page pixel limit, at most ten times the frame limit, at least one page', () => {
    expect(affordablePages(280 * 280, { maxInputPixels: 90_000, maxFrames: 60 })).toBe(4);
    expect(affordablePages(16 * 16, { maxInputPixels: 100_000_000, maxFrames: 60 })).toBe(600);
    expect(affordablePages(90_000, { maxInputPixels: 20_000, maxFrames: 60 })).toBe(1);
  });
});

describe('thinFrames', () => {
  it('folds frames shorter than 1/maxFps into the frame before them, keeping the total time', () => {
    const thinned = thinFrames(['a', 'b', 'c', 'd', 'e', 'f'], [40, 40, 40, 40, 40, 40], 10, 60);
    expect(thinned).toEqual({ frames: ['a', 'd'], delaysMs: [120, 120] });
  });
  it('keeps frames that are long enough as they are', () => {
    expect(thinFrames(['a', 'b'], [100, 250], 10, 60)).toEqual({ frames: ['a', 'b'], delaysMs: [100, 250] });
  });
  it('stops at the frame limit', () => {
    expect(thinFrames(['a', 'b', 'c', 'd'], [100, 100, 100, 100], 10, 2)).toEqual({
      frames: ['a', 'b'],
      delaysMs: [100, 100],
    });
  });
});
