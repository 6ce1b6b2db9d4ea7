import {
  affordablePages,
  chooseAnimationWindow,
  effectiveDelay,
  thinFrames,
  type AnimationWindow,
} from './animation.rules.js';
import {
  clipFps,
  fitInside,
  refuseOverPixelLimit,
  videoClipStart,
  type Clip,
  type ClipRequest,
  type ClipStart,
} from './clip.rules.js';
import { UnsupportedMediaError } from './thumbnail.errors.js';

/** What an image's header says, before anything is decoded (sharp's metadata). */
export interface ImageProbe {
  /** libvips' loader: `png`, `jpeg`, `gif`, `webp`, `heif` (AVIF), `svg`, …; undefined when it does not say. */
  format: string | undefined;
  width: number | undefined;
  /** One page's height (an animation's pages are stacked). */
  pageHeight: number | undefined;
  pages: number | undefined;
  /** Each page's delay as the file gives it, ms. */
  delaysMs: readonly number[] | undefined;
}

/** A video's first stream as ffprobe reports it. */
export interface VideoProbe {
  /** Display size: sample aspect ratio and rotation applied. */
  width: number;
  height: number;
  /** Seconds; NaN when the container does not say. */
  duration: number;
  /** Frames per second of the source; NaN when unknown. */
  fps: number;
  /** Where the video's keyframes are, seconds from its start, ascending. */
  keyframes: number[];
}

/** What the image decoder is asked for: the pages, the size to scale them to, libvips' pixel limit. */
export interface ImageDecode {
  /** An animation's run of pages; absent for a still, which is decoded once and turned upright. */
  pages?: { start: number; count: number };
  width: number;
  height: number;
  limitInputPixels: number;
}

/** What the video decoder is asked for: from where, how long, how fast and how large. */
export interface VideoDecode {
  start: ClipStart;
  seconds: number;
  fps: number;
  width: number;
  height: number;
  maxFrames: number;
}

/** Frames a decoder gave, all of one size, RGBA. */
export interface DecodedFrames {
  width: number;
  height: number;
  frames: Buffer[];
}

/** How an image becomes a clip: the decode, and the timing of the pages it decodes. */
export interface ImageClipPlan {
  decode: ImageDecode;
  window: AnimationWindow;
}

/*
 * libvips picks its loader from the bytes, not the board's extension, and can load far more than
 * the board serves (SVG through librsvg, TIFF, …). Only the formats of the board's image types
 * are decoded; `heif` is how sharp reports AVIF.
 */
const DECODABLE_IMAGE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp', 'heif']);

const STILL: AnimationWindow = { start: 0, count: 1, delaysMs: [100] };

/**
 * Refuses an image the worker does not decode (a format the board does not serve, no size, over
 * the pixel limit); else the representative stretch of an animation (only the pages in the window,
 * only within the pixel budget) or the still, fitted into the box.
 */
export function imageClipPlan(probe: ImageProbe, request: ClipRequest): ImageClipPlan {
  if (!DECODABLE_IMAGE_FORMATS.has(probe.format ?? ''))
    throw new UnsupportedMediaError(`unsupported image format "${probe.format ?? 'unknown'}"`);
  const { width, pageHeight } = probe;
  if (!width || !pageHeight) throw new UnsupportedMediaError('image has no size');
  refuseOverPixelLimit('image', width, pageHeight, request.maxInputPixels);
  const pages = Math.max(1, probe.pages ?? 1);
  const size = fitInside(width, pageHeight, request.box);
  if (pages === 1) return { decode: { ...size, limitInputPixels: request.maxInputPixels }, window: STILL };
  const delays = Array.from({ length: pages }, (_, i) => effectiveDelay(probe.delaysMs?.[i]));
  const window = chooseAnimationWindow(delays, request.clipSeconds, affordablePages(width * pageHeight, request));
  return {
    decode: {
      pages: { start: window.start, count: window.count },
      ...size,
      limitInputPixels: width * pageHeight * window.count,
    },
    window,
  };
}

/** The clip of an image's decoded pages: their timing from the window, thinned to the frame rate and count. */
export function imageClipOf(decoded: DecodedFrames, plan: ImageClipPlan, request: ClipRequest): Clip {
  const delays = plan.window.delaysMs.slice(0, decoded.frames.length);
  const thinned = thinFrames(decoded.frames, delays, request.maxFps, request.maxFrames);
  return { width: decoded.width, height: decoded.height, ...thinned };
}

/**
 * Refuses a video over the pixel limit; else up to `clipSeconds` from the keyframe nearest a third
 * in (`videoClipStart`), at ≤ `maxFps`, fitted into the box.
 */
export function videoClipPlan(probe: VideoProbe, request: ClipRequest): VideoDecode {
  refuseOverPixelLimit('video', probe.width, probe.height, request.maxInputPixels);
  return {
    ...fitInside(probe.width, probe.height, request.box),
    fps: clipFps(probe.fps, request.maxFps),
    start: videoClipStart(probe.duration, request.clipSeconds, probe.keyframes),
    seconds: request.clipSeconds,
    maxFrames: request.maxFrames,
  };
}

/**
 * A container that misreports its length can leave nothing after the seek point: then the clip is
 * decoded again from the very start. Undefined when the decode gave frames, or began there already.
 */
export function retryFromTheStart(decode: VideoDecode, framesDecoded: number): VideoDecode | undefined {
  return framesDecoded === 0 && decode.start.seconds > 0
    ? { ...decode, start: { seconds: 0, atKeyframe: true } }
    : undefined;
}

/** The clip of a video's decoded frames, each shown for one step of the clip's frame rate. */
export function videoClipOf(decoded: DecodedFrames, decode: VideoDecode): Clip {
  const delayMs = Math.round(1000 / decode.fps);
  return {
    width: decoded.width,
    height: decoded.height,
    frames: decoded.frames,
    delaysMs: decoded.frames.map(() => delayMs),
  };
}
