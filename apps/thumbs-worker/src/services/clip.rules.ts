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

/** The clip's frame rate: the source's when it is known and lower than the cap, else the cap. */
export const clipFps = (sourceFps: number, maxFps: number): number => (Number.isFinite(sourceFps) && sourceFps > 0 ? Math.min(maxFps, sourceFps) : maxFps);

/**
 * Refuses a frame over the pixel limit before anything is decoded; the message (for the worker's
 * log) says what the input is and which limit it broke.
 */
export function refuseOverPixelLimit(what: 'image' | 'video', width: number, height: number, maxInputPixels: number): void {
  if (width * height > maxInputPixels) throw new UnsupportedMediaError(`${what} is ${width}×${height}, over the ${maxInputPixels} pixel limit`, { failure: 'tooLarge' });
}
