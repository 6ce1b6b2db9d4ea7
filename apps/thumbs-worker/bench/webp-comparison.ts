/*
 * The WebP part of `pnpm bench thumbs`: the worker's own decoder and encoders run in this process
 * on each input, so the GIF, PNG and WebP come from the very same decoded frames. Reports each
 * encoder's time alone, the WebP's bytes against the GIF's, how close each is to the decoded
 * frames (PSNR over RGB and luma, SSIM over luma), and what writing the WebP adds to a GIF+PNG
 * job run the way the worker runs it (GIF streamed during a video's decode, files encoded at once).
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { ImageRepository } from '../src/repositories/image.repository.js';
import {
  ThumbnailEncoderRepository,
  WEBP_QUALITY,
  type GifEncoding,
} from '../src/repositories/thumbnail-encoder.repository.js';
import { VideoRepository } from '../src/repositories/video.repository.js';
import { ImageClipService } from '../src/services/image-clip.service.js';
import { VideoClipService } from '../src/services/video-clip.service.js';
import type { Clip } from '../src/domain/clip.rules.js';
import { clipRequestFor } from '../src/domain/thumbnail-job.rules.js';
import { psnrLuma, psnrRgb, ssimLuma } from './image-quality.js';
import { IMAGE_EXTS, WORKER_LIMITS, median } from './bench-inputs.js';

export interface WebpInput {
  name: string;
  ext: string;
  file: string;
}

export interface Quality {
  psnrRgb: number;
  psnrLuma: number;
  ssimLuma: number;
}

export interface WebpMeasure {
  name: string;
  frames: number;
  decodeMs: number;
  gifMs: number;
  pngMs: number;
  webpMs: number;
  thumbhashMs: number;
  /** Median wall of decode + GIF + PNG, as a job runs them. */
  gifPngJobMs: number;
  /** Median wall of decode + GIF + PNG + WebP + ThumbHash, as a job runs them. */
  allJobMs: number;
  gifBytes: number;
  webpBytes: number;
  gif: Quality;
  webp: Quality;
}

const timed = async <T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

/** An encoded animation's frames against the clip's. */
async function quality(encoded: Buffer, clip: Clip): Promise<Quality> {
  const { data } = await sharp(encoded, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pair = { actual: data, expected: Buffer.concat(clip.frames), width: clip.width, height: clip.height };
  return { psnrRgb: psnrRgb(pair), psnrLuma: psnrLuma(pair), ssimLuma: ssimLuma(pair) };
}

/** Decodes each input as a gif job does, times every encoder alone on the same frames, then whole jobs `runs` times. */
export async function measureWebp(inputs: readonly WebpInput[], runs: number): Promise<WebpMeasure[]> {
  const videos = new VideoClipService(new VideoRepository({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' }));
  const images = new ImageClipService(new ImageRepository());
  const encoder = new ThumbnailEncoderRepository({ ffmpegPath: 'ffmpeg' });
  const request = clipRequestFor('gif', WORKER_LIMITS);
  const isImage = (input: WebpInput): boolean => IMAGE_EXTS.includes(input.ext);

  /** What a gif job does after its download: a video's frames stream to the GIF encoder while decoded. */
  async function job(input: WebpInput, withWebp: boolean): Promise<number> {
    const started = performance.now();
    let streamed: GifEncoding | undefined;
    const clip = isImage(input)
      ? await images.readClip(input.file, request)
      : await videos.readClip(
          input.file,
          request,
          undefined,
          (size) => (streamed = encoder.startGif(size, request.maxFrames)),
        );
    const gif = streamed ? streamed.finish(clip.delaysMs) : encoder.gif(clip);
    await Promise.all([gif, encoder.png(clip), ...(withWebp ? [encoder.webp(clip), encoder.thumbhash(clip)] : [])]);
    return performance.now() - started;
  }

  const results: WebpMeasure[] = [];
  for (const input of inputs) {
    const decoded = await timed(() =>
      isImage(input) ? images.readClip(input.file, request) : videos.readClip(input.file, request),
    );
    const clip = decoded.value;
    const gif = await timed(() => encoder.gif(clip));
    const png = await timed(() => encoder.png(clip));
    const webp = await timed(() => encoder.webp(clip));
    const thumbhash = await timed(() => encoder.thumbhash(clip));
    const gifPngJob: number[] = [];
    const allJob: number[] = [];
    for (let run = 0; run < runs; run++) {
      gifPngJob.push(await job(input, false));
      allJob.push(await job(input, true));
    }
    results.push({
      name: input.name,
      frames: clip.frames.length,
      decodeMs: decoded.ms,
      gifMs: gif.ms,
      pngMs: png.ms,
      webpMs: webp.ms,
      thumbhashMs: thumbhash.ms,
      gifPngJobMs: median(gifPngJob),
      allJobMs: median(allJob),
      gifBytes: gif.value.length,
      webpBytes: webp.value.length,
      gif: await quality(gif.value, clip),
      webp: await quality(webp.value, clip),
    });
  }
  return results;
}

export { WEBP_QUALITY };
