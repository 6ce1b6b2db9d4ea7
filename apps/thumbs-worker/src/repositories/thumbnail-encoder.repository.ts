import GIFEncoder, { type GifQuantizer } from 'gif-encoder-2';
import NeuQuant from 'gif-encoder-2/src/TypedNeuQuant.js';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { fitInside, type Clip } from '../services/clip.rules.js';

/** Frames sampled to learn the shared palette; enough to see a 3 s clip's colours. */
const PALETTE_SAMPLE_FRAMES = 6;
const NEUQUANT_SAMPLE_FACTOR = 10;

/**
 * libwebp's lossy quality for the WebP. At 60 (effort 4, libwebp's default speed/size trade-off)
 * the benchmark inputs' WebP is 0.13–0.21× the bytes of their GIF (`pnpm bench thumbs`). Its PSNR
 * against the decoded frames is lower than the GIF's (about 25 vs 37 dB on the synthetic test
 * pattern, whose sharp colour edges suffer from chroma subsampling): raise it if that shows.
 */
export const WEBP_QUALITY = 60;
const WEBP_EFFORT = 4;
/** ThumbHash encodes images of at most 100×100. */
const THUMBHASH_BOX = 100;

/**
 * One palette for the whole clip, learned from a few frames spread across it (what ffmpeg's
 * palettegen does). Learning per frame is most of gif-encoder-2's time and makes colours
 * flicker between frames (docs/adr/0007).
 */
function learnPalette(clip: Clip): GifQuantizer {
  const count = Math.min(PALETTE_SAMPLE_FRAMES, clip.frames.length);
  const pixelsPerFrame = clip.width * clip.height;
  const rgb = new Uint8Array(count * pixelsPerFrame * 3);
  let out = 0;
  for (let s = 0; s < count; s++) {
    const frame = clip.frames[Math.floor((s * clip.frames.length) / count)]!;
    for (let i = 0; i < frame.length; i += 4) {
      rgb[out++] = frame[i]!;
      rgb[out++] = frame[i + 1]!;
      rgb[out++] = frame[i + 2]!;
    }
  }
  const quantizer = new NeuQuant(rgb, NEUQUANT_SAMPLE_FACTOR);
  quantizer.buildColormap();
  return quantizer;
}

/** Decoded clips encoded into the thumbnail files: GIF with gif-encoder-2, PNG and WebP with sharp, the still's ThumbHash. */
export class ThumbnailEncoderRepository {
  /** A looping GIF of every frame of the clip over one shared palette (a still gives a one-frame GIF). */
  gif(clip: Clip, signal?: AbortSignal): Buffer {
    const encoder = new GIFEncoder(clip.width, clip.height, 'neuquant', false, clip.frames.length);
    const quantizer = learnPalette(clip);
    encoder.quantizer = quantizer;
    encoder.colorTab = quantizer.getColormap();
    encoder.reuseTab = true;
    encoder.setRepeat(0);
    encoder.start();
    clip.frames.forEach((frame, i) => {
      // The encoder is synchronous JavaScript; checking between frames keeps a timed-out job short.
      signal?.throwIfAborted();
      encoder.setDelay(clip.delaysMs[i] ?? 100);
      encoder.addFrame(frame);
    });
    encoder.finish();
    return encoder.out.getData();
  }

  /** The clip's first frame (the representative point) as a PNG. */
  png(clip: Clip): Promise<Buffer> {
    const first = clip.frames[0];
    if (!first) throw new Error('clip has no frames');
    return sharp(first, { raw: { width: clip.width, height: clip.height, channels: 4 } }).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
  }

  /**
   * Every frame of the clip as a looping animated WebP with the clip's timing (the same frames and
   * box as the GIF); a one-frame clip gives a still WebP.
   */
  async webp(clip: Clip, signal?: AbortSignal): Promise<Buffer> {
    const count = clip.frames.length;
    if (count === 0) throw new Error('clip has no frames');
    signal?.throwIfAborted();
    const options = { quality: WEBP_QUALITY, effort: WEBP_EFFORT };
    if (count === 1) return sharp(clip.frames[0], { raw: { width: clip.width, height: clip.height, channels: 4 } }).webp(options).toBuffer();
    const stacked = sharp(Buffer.concat(clip.frames), { raw: { width: clip.width, height: clip.height * count, channels: 4, pageHeight: clip.height } });
    return stacked.webp({ ...options, loop: 0, delay: clip.delaysMs.map((ms) => Math.max(1, ms)) }).toBuffer();
  }

  /** The ThumbHash (https://evanw.github.io/thumbhash/) of the clip's first frame, the still. */
  async thumbhash(clip: Clip): Promise<Buffer> {
    const first = clip.frames[0];
    if (!first) throw new Error('clip has no frames');
    return thumbhashOfRgba(first, clip.width, clip.height);
  }
}

/** ThumbHash of an RGBA image, scaled to fit the 100×100 ThumbHash takes. */
export async function thumbhashOfRgba(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  const size = fitInside(width, height, THUMBHASH_BOX);
  const { data, info } = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .resize({ width: size.width, height: size.height, fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data));
}
