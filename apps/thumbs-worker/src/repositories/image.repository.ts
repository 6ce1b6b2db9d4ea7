import sharp, { type Metadata, type OutputInfo } from 'sharp';
import {
  affordablePages,
  chooseAnimationWindow,
  effectiveDelay,
  thinFrames,
  type AnimationWindow,
} from '../domain/animation.rules.js';
import { fitInside, refuseOverPixelLimit, type Clip, type ClipRequest } from '../domain/clip.rules.js';
import { UnsupportedMediaError } from '../domain/thumbnail.errors.js';

/*
 * libvips picks its loader from the bytes, not the board's extension, and can load far more than
 * the board serves (SVG through librsvg, TIFF, …). Only the formats of the board's image types
 * are decoded; `heif` is how sharp reports AVIF.
 */
const DECODABLE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp', 'heif']);

/** The failure becomes the reason API clients see (500 1060): one line, our temp path as "input". */
const libvipsReason = (error: unknown, file: string): string =>
  ((error as Error).message.trim().split('\n')[0] ?? '').replaceAll(file, 'input');

const STILL: AnimationWindow = { start: 0, count: 1, delaysMs: [100] };

/** Stills and animations (GIF, WebP) decoded with sharp; unreadable input is an UnsupportedMediaError. */
export class ImageRepository {
  /**
   * Decodes a still, or the representative stretch of an animation, fitted into the box. Only the
   * pages in the window are decoded, and only within the pixel budget.
   */
  async readClip(file: string, request: ClipRequest): Promise<Clip> {
    let meta: Metadata;
    try {
      meta = await sharp(file, { animated: true, limitInputPixels: false }).metadata();
    } catch (error) {
      throw new UnsupportedMediaError(`not a readable image: ${libvipsReason(error, file)}`, { cause: error });
    }
    if (!DECODABLE_FORMATS.has(meta.format ?? ''))
      throw new UnsupportedMediaError(`unsupported image format "${meta.format ?? 'unknown'}"`);
    const pageHeight = meta.pageHeight ?? meta.height;
    if (!meta.width || !pageHeight) throw new UnsupportedMediaError('image has no size');
    refuseOverPixelLimit('image', meta.width, pageHeight, request.maxInputPixels);
    const pages = Math.max(1, meta.pages ?? 1);
    const delays = Array.from({ length: pages }, (_, i) => effectiveDelay(meta.delay?.[i]));
    const window =
      pages > 1
        ? chooseAnimationWindow(delays, request.clipSeconds, affordablePages(meta.width * pageHeight, request))
        : STILL;
    const size = fitInside(meta.width, pageHeight, request.box);

    let data: Buffer;
    let info: OutputInfo;
    try {
      const input =
        pages > 1
          ? sharp(file, {
              page: window.start,
              pages: window.count,
              limitInputPixels: meta.width * pageHeight * window.count,
            })
          : sharp(file, { limitInputPixels: request.maxInputPixels }).rotate();
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
    const thinned = thinFrames(frames, window.delaysMs.slice(0, count), request.maxFps, request.maxFrames);
    return { width: info.width, height: frameHeight, ...thinned };
  }
}
