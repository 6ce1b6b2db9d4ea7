import sharp from 'sharp';

/**
 * Scales a QR code drawn at one pixel per module to an exact size, in libvips (off the event loop):
 * nearest-neighbour, so every pixel stays black or white and modules stay sharp-edged.
 */
export class QrImageRepository {
  scalePng(modulePng: Buffer, size: number): Promise<Buffer> {
    return sharp(modulePng).resize(size, size, { kernel: 'nearest' }).png().toBuffer();
  }
}
