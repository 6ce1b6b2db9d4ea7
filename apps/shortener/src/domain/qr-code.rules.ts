import { ApiError } from '@pawlink/service-kit';
import QRCode from 'qrcode';

/*
 * QR codes of short links, encoded by the `qrcode` library (ISO/IEC 18004; error correction M, its
 * default). Pure computation: no I/O.
 */

/** Modules across the symbol of `text` (21 for version 1, up to 177 for version 40). */
export const qrModulesOf = (text: string): number => QRCode.create(text).modules.size;

/** The SVG of `text` with `margin` modules of quiet zone on each side: scalable, sized by its viewBox. */
export function qrSvg(text: string, margin: number): Promise<string> {
  return QRCode.toString(text, { type: 'svg', margin });
}

/**
 * The PNG of `text` at one pixel per module, `margin` modules of quiet zone included: what a PNG
 * of any size is scaled up from. (The library's own large PNGs are drawn pixel by pixel in
 * JavaScript: 2048 × 2048 held the event loop for ~0.6 s.)
 */
export function qrModulePng(text: string, margin: number): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', scale: 1, margin });
}

/** 400 1057 unless `size` pixels give every module of `text`'s symbol, margin included, a pixel. */
export function assertQrFits(text: string, size: number, margin: number): void {
  const modules = qrModulesOf(text) + 2 * margin;
  if (size < modules) {
    throw new ApiError('INVALID_QUERY_VALUE', {
      message: `Invalid size: the QR code of this link is ${modules} modules wide with margin ${margin}; give a size of at least ${modules} pixels.`,
    });
  }
}
