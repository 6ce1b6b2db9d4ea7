import { ApiError } from '@pawlink/service-kit';
import QRCode from 'qrcode';

/*
 * QR codes of short links, drawn by the `qrcode` library (ISO/IEC 18004; error correction M, its
 * default). Pure computation: no I/O.
 */

/** Modules across the symbol of `text` (21 for version 1, up to 177 for version 40). */
export const qrModulesOf = (text: string): number => QRCode.create(text).modules.size;

/** The SVG of `text` with `margin` modules of quiet zone on each side: scalable, sized by its viewBox. */
export function qrSvg(text: string, margin: number): Promise<string> {
  return QRCode.toString(text, { type: 'svg', margin });
}

/**
 * The PNG of `text`, exactly `size` pixels wide and high, `margin` modules of quiet zone included.
 * 400 1057 when `size` cannot give every module a pixel. The library's width is its scale times
 * the module count, rounded down, and that product of floats can fall a hair short of `size`
 * (1 in 18 sizes): half a pixel more makes the rounding land on `size` itself.
 */
export function qrPng(text: string, size: number, margin: number): Promise<Buffer> {
  const modules = qrModulesOf(text) + 2 * margin;
  if (size < modules) {
    throw new ApiError('INVALID_QUERY_VALUE', { message: `Invalid size: the QR code of this link is ${modules} modules wide with margin ${margin}; give a size of at least ${modules} pixels.` });
  }
  return QRCode.toBuffer(text, { type: 'png', width: size + 0.5, margin });
}
