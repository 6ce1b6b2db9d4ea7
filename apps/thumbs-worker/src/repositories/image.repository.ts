import sharp, { type Metadata, type OutputInfo } from 'sharp';
import type { DecodedFrames, ImageDecode, ImageProbe } from '../domain/clip-plan.rules.js';
import { UnsupportedMediaError } from '../domain/thumbnail.errors.js';

/** The failure becomes the reason API clients see (500 1060): one line, our temp path as "input". */
const libvipsReason = (error: unknown, file: string): string =>
  ((error as Error).message.trim().split('\n')[0] ?? '').replaceAll(file, 'input');

/**
 * Stills and animations (GIF, WebP) read with sharp: probed, then decoded as the service's plan
 * says (`imageClipPlan`); unreadable input is an UnsupportedMediaError.
 */
export class ImageRepository {
  /** The image's header: its format, page size, pages and delays; nothing is decoded. */
  async probe(file: string): Promise<ImageProbe> {
    let meta: Metadata;
    try {
      meta = await sharp(file, { animated: true, limitInputPixels: false }).metadata();
    } catch (error) {
      throw new UnsupportedMediaError(`not a readable image: ${libvipsReason(error, file)}`, { cause: error });
    }
    return {
      format: meta.format,
      width: meta.width,
      pageHeight: meta.pageHeight ?? meta.height,
      pages: meta.pages,
      delaysMs: meta.delay,
    };
  }

  /**
   * Decodes the pages asked for (a still once, turned upright), scaled to the size asked for, as
   * RGBA frames; libvips refuses more input pixels than `limitInputPixels`.
   */
  async decode(file: string, decode: ImageDecode): Promise<DecodedFrames> {
    let data: Buffer;
    let info: OutputInfo;
    try {
      const input = decode.pages
        ? sharp(file, {
            page: decode.pages.start,
            pages: decode.pages.count,
            limitInputPixels: decode.limitInputPixels,
          })
        : sharp(file, { limitInputPixels: decode.limitInputPixels }).rotate();
      ({ data, info } = await input
        .resize({ width: decode.width, height: decode.height, fit: 'fill' })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true }));
    } catch (error) {
      throw new UnsupportedMediaError(`image could not be decoded: ${libvipsReason(error, file)}`, { cause: error });
    }
    const frameHeight = decode.pages ? (info.pageHeight ?? Math.floor(info.height / decode.pages.count)) : info.height;
    const frameBytes = info.width * frameHeight * 4;
    const count = Math.floor(data.length / frameBytes);
    if (count === 0) throw new UnsupportedMediaError('image has no decodable frames');
    const frames = Array.from({ length: count }, (_, i) => data.subarray(i * frameBytes, (i + 1) * frameBytes));
    return { width: info.width, height: frameHeight, frames };
  }
}
