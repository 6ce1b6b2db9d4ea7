import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';

/** ThumbHash takes images of at most 100×100. */
const THUMBHASH_BOX = 100;

/**
 * ThumbHashes (https://evanw.github.io/thumbhash/, the `thumbhash` package) of images, in base64:
 * the first frame, scaled with sharp to fit 100×100, orientation applied.
 */
export class ThumbhashRepository {
  /** The ThumbHash of an image's bytes, or of the image file at a path. */
  async of(image: Buffer | string): Promise<string> {
    const { data, info } = await sharp(image, { limitInputPixels: 268_402_689 })
      .rotate()
      .resize({ width: THUMBHASH_BOX, height: THUMBHASH_BOX, fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
  }
}
