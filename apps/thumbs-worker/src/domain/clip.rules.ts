import { UnsupportedMediaError } from './thumbnail.errors.js';

/** Decoded frames, all the same size, RGBA. */
export interface Clip {
  width: number;
  height: number;
  frames: Buffer[];
  /** Display time of each frame. */
  delaysMs: number[];
}

/** Takes a clip's frames one by one while they are decoded, before the clip is complete. */
export interface FrameSink {
  write(frame: Buffer): void;
}

/** Where a decoder streams its frames, asked for once the clip's size is known. */
export type FrameSinkFor = (size: { width: number; height: number }) => FrameSink;

/** What a decoder is asked for: the representative stretch of a piece, fitted into a box. */
export interface ClipRequest {
  /** Output bounding box, pixels (a square). */
  box: number;
  maxFps: number;
  maxFrames: number;
  /** Longest stretch read, seconds. */
  clipSeconds: number;
  /** Largest width×height of one input frame. */
  maxInputPixels: number;
}

/** Largest size that fits in a `box`×`box` square keeping the aspect ratio; never enlarges. */
export function fitInside(width: number, height: number, box: number): { width: number; height: number } {
  const scale = Math.min(1, box / width, box / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Where a representative stretch of `clipSeconds` starts in a `totalSeconds` long piece: about a
 * third in (past intros and fades from black), the whole thing when it is short.
 */
export function representativeStart(totalSeconds: number, clipSeconds: number): number {
  if (!Number.isFinite(totalSeconds) || totalSeconds <= clipSeconds) return 0;
  return Math.max(0, Math.min(totalSeconds / 3, totalSeconds - clipSeconds));
}

/** Where a video's clip starts, and whether that is a keyframe. */
export interface ClipStart {
  seconds: number;
  atKeyframe: boolean;
}

/**
 * Where a video's clip starts: at the keyframe nearest its representative start. A decoder can
 * only begin at a keyframe, so a start between two would decode everything from the one before it
 * (up to a whole group of pictures, seconds of frames at full size) only to throw it away. The
 * keyframe must lie within half the representative start of it (so still past intros, and still
 * representative) and leave a whole clip after it; when none does (one keyframe at the beginning,
 * say), the representative start itself.
 * `keyframes` are seconds from the start of the video, ascending.
 */
export function videoClipStart(totalSeconds: number, clipSeconds: number, keyframes: readonly number[]): ClipStart {
  const target = representativeStart(totalSeconds, clipSeconds);
  if (target === 0) return { seconds: 0, atKeyframe: true };
  let best: number | undefined;
  for (const keyframe of keyframes) {
    if (Math.abs(keyframe - target) > target / 2 || keyframe > totalSeconds - clipSeconds) continue;
    if (best === undefined || Math.abs(keyframe - target) < Math.abs(best - target)) best = keyframe;
  }
  return best === undefined ? { seconds: target, atKeyframe: false } : { seconds: best, atKeyframe: true };
}

/** The clip's frame rate: the source's when it is known and lower than the cap, else the cap. */
export const clipFps = (sourceFps: number, maxFps: number): number =>
  Number.isFinite(sourceFps) && sourceFps > 0 ? Math.min(maxFps, sourceFps) : maxFps;

/**
 * Refuses a frame over the pixel limit before anything is decoded; the message (for the worker's
 * log) says what the input is and which limit it broke.
 */
export function refuseOverPixelLimit(
  what: 'image' | 'video',
  width: number,
  height: number,
  maxInputPixels: number,
): void {
  if (width * height > maxInputPixels)
    throw new UnsupportedMediaError(`${what} is ${width}×${height}, over the ${maxInputPixels} pixel limit`, {
      failure: 'tooLarge',
    });
}
