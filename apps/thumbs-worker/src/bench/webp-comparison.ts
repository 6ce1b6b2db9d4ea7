/*
 * The WebP part of `pnpm bench thumbs`: the worker's own decoder and encoders run in this process
 * on each input, so the GIF, PNG and WebP come from the very same decoded frames. Reports each
 * encoder's time, the WebP's bytes against the GIF's, how close each is to the decoded frames
 * (PSNR), and what writing the WebP adds to a GIF+PNG job.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { ImageRepository } from '../repositories/image.repository.js';
import { ThumbnailEncoderRepository, WEBP_QUALITY } from '../repositories/thumbnail-encoder.repository.js';
import { VideoRepository } from '../repositories/video.repository.js';
import type { Clip } from '../services/clip.rules.js';
import { clipRequestFor } from '../services/thumbnail-job.rules.js';

export interface WebpInput {
  name: string;
  ext: string;
  file: string;
}

export interface WebpMeasure {
  name: string;
  frames: number;
  decodeMs: number;
  gifMs: number;
  pngMs: number;
  webpMs: number;
  thumbhashMs: number;
  gifBytes: number;
  webpBytes: number;
  gifPsnr: number;
  webpPsnr: number;
}

/** The worker's defaults (config.ts): 320 box, 10 fps, 60 frames, 3 s. */
const LIMITS = { maxInputPixels: 100_000_000, maxFrames: 60, maxDurationSeconds: 3, size: 320, fps: 10 };

const timed = async <T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

/** PSNR (dB) of an encoded animation's RGB against the clip's frames. */
async function psnr(encoded: Buffer, clip: Clip): Promise<number> {
  const { data, info } = await sharp(encoded, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const reference = Buffer.concat(clip.frames);
  let squared = 0;
  let samples = 0;
  for (let i = 0; i < Math.min(data.length, reference.length); i += info.channels) {
    for (let c = 0; c < 3; c++) {
      const d = data[i + c]! - reference[i + c]!;
      squared += d * d;
      samples++;
    }
  }
  const mse = squared / Math.max(1, samples);
  return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

/** Decodes each input once as a gif job does, then times every encoder on the same frames. */
export async function measureWebp(inputs: readonly WebpInput[]): Promise<WebpMeasure[]> {
  const videos = new VideoRepository({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
  const images = new ImageRepository();
  const encoder = new ThumbnailEncoderRepository();
  const request = clipRequestFor('gif', LIMITS);
  const results: WebpMeasure[] = [];
  for (const input of inputs) {
    const decoded = await timed(() => (['gif', 'png', 'jpg', 'jpeg', 'webp', 'avif'].includes(input.ext) ? images.readClip(input.file, request) : videos.readClip(input.file, request)));
    const clip = decoded.value;
    const gif = await timed(() => encoder.gif(clip));
    const png = await timed(() => encoder.png(clip));
    const webp = await timed(() => encoder.webp(clip));
    const thumbhash = await timed(() => encoder.thumbhash(clip));
    results.push({
      name: input.name, frames: clip.frames.length, decodeMs: decoded.ms, gifMs: gif.ms, pngMs: png.ms, webpMs: webp.ms, thumbhashMs: thumbhash.ms,
      gifBytes: gif.value.length, webpBytes: webp.value.length, gifPsnr: await psnr(gif.value, clip), webpPsnr: await psnr(webp.value, clip),
    });
  }
  return results;
}

export { WEBP_QUALITY };
