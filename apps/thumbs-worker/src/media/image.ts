import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { fitInside, representativeStart, type Clip } from './clip.js';
import { UnsupportedMediaError } from './media.errors.js';

export interface ImageClipOptions {
  box: number;
  maxFps: number;
  maxFrames: number;
  clipSeconds: number;
  maxInputPixels: number;
}

/*
 * libvips picks its loader from the bytes, not the board's extension, and can load far more than
 * the board serves (SVG through librsvg, TIFF, …). Only the formats of the board's image types
 * are decoded; `heif` is how sharp reports AVIF.
 */
const DECODABLE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp', 'heif']);

/** The failure becomes the reason API clients see (500 1060): one line, our temp path as "input". */
const libvipsReason = (error: unknown, file: string): string =>
  ((error as Error).message.trim().split('\n')[0] ?? '').replaceAll(file, 'input');

/** Browsers show frames with a tiny or zero delay at 100 ms; so do we. */
const effectiveDelay = (ms: number | undefined): number => (ms === undefined || ms < 20 ? 100 : ms);

interface Window {
  start: number;
  count: number;
  delaysMs: number[];
}

/*
 * Pages decoded for one animation, in input pixels, as a multiple of the one-page limit. The page
 * limit alone would let 600 pages of 100 MP each through (minutes of CPU that the job timeout
 * cannot stop, since libvips keeps decoding); ×4 still covers 3 s of a 50 fps 1080p GIF.
 */
const ANIMATION_PIXEL_BUDGET = 4;

/** Pages covering up to `clipSeconds` (and at most `maxPages`) from about a third into the animation. */
function chooseWindow(delays: number[], options: ImageClipOptions, maxPages: number): Window {
  const total = delays.reduce((sum, d) => sum + d, 0);
  const startMs = representativeStart(total / 1000, options.clipSeconds) * 1000;
  let start = 0;
  for (let elapsed = 0; start < delays.length - 1 && elapsed + delays[start]! <= startMs; start++) elapsed += delays[start]!;
  const windowDelays: number[] = [];
  let span = 0;
  for (let page = start; page < delays.length && span < options.clipSeconds * 1000 && windowDelays.length < maxPages; page++) {
    windowDelays.push(delays[page]!);
    span += delays[page]!;
  }
  return { start, count: windowDelays.length, delaysMs: windowDelays };
}

/**
 * Keeps at most `maxFps` frames per second by folding frames shorter than the step into the
 * frame before them, so the animation keeps its timing.
 */
function thin(frames: Buffer[], delays: number[], maxFps: number, maxFrames: number): { frames: Buffer[]; delaysMs: number[] } {
  const step = 1000 / maxFps;
  const keptFrames: Buffer[] = [];
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

/**
 * Decodes a still or the representative stretch of an animated GIF/WebP with sharp, fitted into
 * the box. Only the pages in the window are decoded.
 */
export async function readImageClip(file: string, options: ImageClipOptions): Promise<Clip> {
  let meta: Metadata;
  try {
    meta = await sharp(file, { animated: true, limitInputPixels: false }).metadata();
  } catch (error) {
    throw new UnsupportedMediaError(`not a readable image: ${libvipsReason(error, file)}`, { cause: error });
  }
  if (!DECODABLE_FORMATS.has(meta.format ?? '')) throw new UnsupportedMediaError(`unsupported image format "${meta.format ?? 'unknown'}"`);
  const pageHeight = meta.pageHeight ?? meta.height;
  if (!meta.width || !pageHeight) throw new UnsupportedMediaError('image has no size');
  if (meta.width * pageHeight > options.maxInputPixels) {
    throw new UnsupportedMediaError(`image is ${meta.width}×${pageHeight}, over the ${options.maxInputPixels} pixel limit`);
  }
  const pages = Math.max(1, meta.pages ?? 1);
  const delays = Array.from({ length: pages }, (_, i) => effectiveDelay(meta.delay?.[i]));
  const affordablePages = Math.max(1, Math.floor((options.maxInputPixels * ANIMATION_PIXEL_BUDGET) / (meta.width * pageHeight)));
  const window = pages > 1 ? chooseWindow(delays, options, Math.min(options.maxFrames * 10, affordablePages)) : { start: 0, count: 1, delaysMs: [100] };
  const size = fitInside(meta.width, pageHeight, options.box);

  let data: Buffer;
  let info: OutputInfo;
  try {
    const input = pages > 1
      ? sharp(file, { page: window.start, pages: window.count, limitInputPixels: meta.width * pageHeight * window.count })
      : sharp(file, { limitInputPixels: options.maxInputPixels }).rotate();
    ({ data, info } = await input
      .resize({ width: size.width, height: size.height, fit: 'fill' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }));
  } catch (error) {
    throw new UnsupportedMediaError(`image could not be decoded: ${libvipsReason(error, file)}`, { cause: error });
  }
  const frameHeight = pages > 1 ? (info.pageHeight ?? Math.floor(info.height / window.count)) : info.height;
  const frameBytes = info.width * frameHeight * 4;
  const count = Math.floor(data.length / frameBytes);
  if (count === 0) throw new UnsupportedMediaError('image has no decodable frames');
  const frames = Array.from({ length: count }, (_, i) => data.subarray(i * frameBytes, (i + 1) * frameBytes));
  const thinned = thin(frames, window.delaysMs.slice(0, count), options.maxFps, options.maxFrames);
  return { width: info.width, height: frameHeight, ...thinned };
}
