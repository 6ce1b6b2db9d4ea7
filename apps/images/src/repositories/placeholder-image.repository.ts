import sharp from 'sharp';

export type PlaceholderFormat = 'png' | 'jpeg' | 'gif';

const SIZES: ReadonlyArray<[number, number]> = [
  [320, 240],
  [480, 480],
  [640, 360],
  [256, 384],
  [800, 600],
];
const FORMATS: readonly PlaceholderFormat[] = ['png', 'jpeg', 'gif'];

export interface PlaceholderImage {
  bytes: Buffer;
  format: PlaceholderFormat;
  ext: string;
}

export interface PlaceholderOptions {
  /** GIFs with several frames (the rings move), so `type=animated` has something to pick; else every GIF is a still. */
  animatedGifs?: boolean;
}

/** Frames of an animated placeholder GIF, and each one's delay. */
const GIF_FRAMES = 6;
const GIF_FRAME_DELAY_MS = 120;

/** Generated images for the demo data (`bin/admin images seed-demo`) and the tests. */
export class PlaceholderImageRepository {
  /**
   * An abstract placeholder (colour bands and rings) whose look, size and format follow from
   * `seed`, so every seeded image has distinct bytes (a distinct MD5) and the set is reproducible.
   * With `animatedGifs`, a GIF is an animation of rings moving outwards (half the size, so its
   * frames cost about what one still does).
   */
  render(seed: number, options: PlaceholderOptions = {}): Promise<PlaceholderImage> {
    return renderPlaceholder(seed, options);
  }
}

/** One frame's RGB pixels; `phase` (0–1) moves the rings outwards by up to one band pair. */
function drawFrame(seed: number, width: number, height: number, phase: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  const hue = (seed * 47) % 360;
  const cx = width * (0.3 + ((seed * 13) % 40) / 100);
  const cy = height * (0.3 + ((seed * 29) % 40) / 100);
  const ring = 12 + (seed % 7) * 4;
  const shift = phase * 2 * ring;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x - cx, y - cy);
      const band = Math.floor((d - shift + 2 * ring) / ring) % 2;
      const t = (x / width + y / height) / 2;
      const h = (hue + t * 120 + band * 60) % 360;
      const [r, g, b] = hslToRgb(h, 0.55, band ? 0.55 : 0.4);
      const i = (y * width + x) * 3;
      pixels[i] = r;
      pixels[i + 1] = g;
      pixels[i + 2] = b;
    }
  }
  return pixels;
}

async function renderPlaceholder(seed: number, options: PlaceholderOptions): Promise<PlaceholderImage> {
  const [fullWidth, fullHeight] = SIZES[seed % SIZES.length]!;
  const format = FORMATS[seed % FORMATS.length]!;
  if (format === 'gif' && options.animatedGifs) {
    const [width, height] = [Math.round(fullWidth / 2), Math.round(fullHeight / 2)];
    const frames = Array.from({ length: GIF_FRAMES }, (_, i) => drawFrame(seed, width, height, i / GIF_FRAMES));
    // The frames stacked top to bottom, each `height` rows high, make one multi-page image.
    const bytes = await sharp(Buffer.concat(frames), {
      raw: { width, height: height * GIF_FRAMES, channels: 3, pageHeight: height },
    })
      .gif({ delay: Array<number>(GIF_FRAMES).fill(GIF_FRAME_DELAY_MS), loop: 0 })
      .toBuffer();
    return { bytes, format, ext: 'gif' };
  }
  const image = sharp(drawFrame(seed, fullWidth, fullHeight, 0), {
    raw: { width: fullWidth, height: fullHeight, channels: 3 },
  });
  const bytes =
    format === 'png'
      ? await image.png().toBuffer()
      : format === 'jpeg'
        ? await image.jpeg({ quality: 80 }).toBuffer()
        : await image.gif().toBuffer();
  return { bytes, format, ext: format === 'jpeg' ? 'jpg' : format };
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}
