/*
 * How close an encoded animation's frames are to the decoded frames it was made from, for the
 * benchmark: PSNR over RGB, PSNR over luma, and SSIM over luma. Lossy WebP stores chroma at half
 * resolution (4:2:0), which RGB PSNR punishes on saturated colour edges and the eye mostly does
 * not see; luma PSNR and SSIM are nearer to what a viewer notices.
 */

/** Two RGBA frame sequences of the same size, compared up to the shorter one. */
export interface FramePair {
  actual: Uint8Array;
  expected: Uint8Array;
  width: number;
  height: number;
}

const luma = (data: Uint8Array, i: number): number => 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
const toDb = (mse: number): number => (mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse));

export function psnrRgb({ actual, expected }: FramePair): number {
  let squared = 0;
  let samples = 0;
  for (let i = 0; i < Math.min(actual.length, expected.length); i += 4) {
    for (let c = 0; c < 3; c++) {
      const d = actual[i + c]! - expected[i + c]!;
      squared += d * d;
      samples++;
    }
  }
  return toDb(squared / Math.max(1, samples));
}

export function psnrLuma({ actual, expected }: FramePair): number {
  let squared = 0;
  let samples = 0;
  for (let i = 0; i < Math.min(actual.length, expected.length); i += 4) {
    const d = luma(actual, i) - luma(expected, i);
    squared += d * d;
    samples++;
  }
  return toDb(squared / Math.max(1, samples));
}

/** Mean SSIM of luma over 8×8 windows every 4 pixels (Wang et al. 2004, uniform window), all frames. */
export function ssimLuma({ actual, expected, width, height }: FramePair): number {
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  const frames = Math.floor(Math.min(actual.length, expected.length) / (width * height * 4));
  let total = 0;
  let windows = 0;
  for (let f = 0; f < frames; f++) {
    const base = f * width * height * 4;
    for (let top = 0; top + 8 <= height; top += 4) {
      for (let left = 0; left + 8 <= width; left += 4) {
        let sa = 0,
          sb = 0,
          saa = 0,
          sbb = 0,
          sab = 0;
        for (let y = top; y < top + 8; y++) {
          for (let x = left; x < left + 8; x++) {
            const i = base + (y * width + x) * 4;
            const a = luma(actual, i);
            const b = luma(expected, i);
            sa += a;
            sb += b;
            saa += a * a;
            sbb += b * b;
            sab += a * b;
          }
        }
        const ma = sa / 64,
          mb = sb / 64;
        const va = saa / 64 - ma * ma,
          vb = sbb / 64 - mb * mb,
          cov = sab / 64 - ma * mb;
        total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
        windows++;
      }
    }
  }
  return windows === 0 ? 1 : total / windows;
}
