/** What the rendering comparisons share. */

/** The worker's defaults (config.ts): 320 box, 10 fps, 60 frames, 3 s. */
export const WORKER_LIMITS = { maxInputPixels: 100_000_000, maxFrames: 60, maxDurationSeconds: 3, size: 320, fps: 10 };

/** Inputs decoded as images (the rest are videos). */
export const IMAGE_EXTS = ['gif', 'png', 'jpg', 'jpeg', 'webp', 'avif'];

/** The middle value of `values` (the upper one of an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
