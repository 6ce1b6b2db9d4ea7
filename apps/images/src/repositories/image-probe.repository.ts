import { readFile } from 'node:fs/promises';
import sharp, { type SharpOptions } from 'sharp';

/** What an image file's header says, as sharp reads it from the bytes (never the file name). */
export interface ImageHeader {
  /** sharp's name of the format (`jpeg`, `png`, `gif`, `webp`, `svg`, …), when it knows one. */
  format: string | undefined;
  width: number | undefined;
  /** The height of one frame: for animations sharp reports all frames stacked as `height`. */
  height: number | undefined;
  /** More than one frame (an animated GIF or WebP). */
  animated: boolean;
}

/*
 * `failOn: 'truncated'` makes a cut-off file an error instead of a partly grey image;
 * `limitInputPixels` is sharp's default bound, stated so a decompression bomb stays refused.
 */
const OPTIONS: SharpOptions = { animated: true, limitInputPixels: 268_402_689, failOn: 'truncated' };

/** Reads files to import and looks into their bytes with sharp. Every failure is thrown as sharp (or fs) gives it. */
export class ImageProbeRepository {
  read(file: string): Promise<Buffer> {
    return readFile(file);
  }

  /** The header only: cheap, and enough to refuse a format before decoding it. */
  async header(bytes: Buffer): Promise<ImageHeader> {
    const metadata = await sharp(bytes, OPTIONS).metadata();
    return {
      format: metadata.format,
      width: metadata.width,
      height: metadata.pageHeight ?? metadata.height,
      animated: (metadata.pages ?? 1) > 1,
    };
  }

  /** Decodes every pixel, which is what finds a truncated or corrupt body that the header hides. */
  async decode(bytes: Buffer): Promise<void> {
    await sharp(bytes, OPTIONS).stats();
  }
}
