import { representativeStart, type ClipRequest } from './clip.rules.js';

/** A run of pages of an animation: the first, how many, and how long each is shown. */
export interface AnimationWindow {
  start: number;
  count: number;
  delaysMs: number[];
}

/** Browsers show frames with a tiny or zero delay at 100 ms; so do we. */
export const effectiveDelay = (ms: number | undefined): number => (ms === undefined || ms < 20 ? 100 : ms);

/*
 * Pages decoded for one animation, in input pixels, as a multiple of the one-page limit. The page
 * limit alone would let 600 pages of 100 MP each through (minutes of CPU that the job timeout
 * cannot stop, since libvips keeps decoding); ×4 still covers 3 s of a 50 fps 1080p GIF.
 */
const ANIMATION_PIXEL_BUDGET = 4;

/**
 * Pages of `pagePixels` each that one animation may decode: the pixel budget's share, at most
 * ten times the frame limit (room for thinning), and always at least one.
 */
export function affordablePages(
  pagePixels: number,
  request: Pick<ClipRequest, 'maxInputPixels' | 'maxFrames'>,
): number {
  const byPixels = Math.max(1, Math.floor((request.maxInputPixels * ANIMATION_PIXEL_BUDGET) / pagePixels));
  return Math.min(request.maxFrames * 10, byPixels);
}

/** Pages covering up to `clipSeconds` (and at most `maxPages`) from about a third into the animation. */
export function chooseAnimationWindow(delays: number[], clipSeconds: number, maxPages: number): AnimationWindow {
  const total = delays.reduce((sum, d) => sum + d, 0);
  const startMs = representativeStart(total / 1000, clipSeconds) * 1000;
  let start = 0;
  for (let elapsed = 0; start < delays.length - 1 && elapsed + delays[start]! <= startMs; start++)
    elapsed += delays[start]!;
  const windowDelays: number[] = [];
  let span = 0;
  for (let page = start; page < delays.length && span < clipSeconds * 1000 && windowDelays.length < maxPages; page++) {
    windowDelays.push(delays[page]!);
    span += delays[page]!;
  }
  return { start, count: windowDelays.length, delaysMs: windowDelays };
}

/**
 * Keeps at most `maxFps` frames per second by folding frames shorter than the step into the
 * frame before them, so the animation keeps its timing; stops at `maxFrames`.
 */
export function thinFrames<T>(
  frames: T[],
  delays: number[],
  maxFps: number,
  maxFrames: number,
): { frames: T[]; delaysMs: number[] } {
  const step = 1000 / maxFps;
  const keptFrames: T[] = [];
  const keptDelays: number[] = [];
  for (let i = 0; i < frames.length; i++) {
    const last = keptDelays.length - 1;
    if (last >= 0 && keptDelays[last]! < step) keptDelays[last]! += delays[i]!;
    else if (keptFrames.length < maxFrames) {
      keptFrames.push(frames[i]!);
      keptDelays.push(delays[i]!);
    } else break;
  }
  return { frames: keptFrames, delaysMs: keptDelays.map((d) => Math.round(d)) };
}
