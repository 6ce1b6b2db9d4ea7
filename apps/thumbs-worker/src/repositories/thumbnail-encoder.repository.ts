import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { fitInside, type Clip, type FrameSink } from '../domain/clip.rules.js';
import { indexedClipOfPal8, pal8FrameBytes } from '../domain/gif-frames.rules.js';
import { encodeIndexedGif } from './indexed-gif-encoder.repository.js';
import { encodeMp4 } from './mp4-encoder.repository.js';
import { runTool } from './tool-process.repository.js';

/**
 * libwebp's lossy quality for the WebP (effort 4, libwebp's default speed/size trade-off; an
 * animation may keep a frame lossless where that is smaller, `mixed`). At 85
 * the WebP of the benchmark videos matches their GIF's luma PSNR and SSIM (within about 1 dB and
 * 0.005) at 0.29–0.41× its bytes; at 60 it was 3 dB and 0.015 SSIM worse. Its RGB PSNR stays far
 * below the GIF's at any quality (about 27 vs 41 dB on the synthetic test pattern): lossy WebP
 * always halves the chroma resolution (4:2:0), which the pattern's saturated colour edges show
 * and the eye mostly does not. GIF sources (already dithered) stay worse. Numbers:
 * `pnpm bench thumbs`, docs/adr/0010.
 */
export const WEBP_QUALITY = 85;
const WEBP_EFFORT = 4;
/** ThumbHash encodes images of at most 100×100. */
const THUMBHASH_BOX = 100;

/*
 * ffmpeg maps the clip onto one palette: learned from every frame (palettegen, the whole clip's
 * colour statistics, its last entry kept for transparency) and applied with its default error
 * diffusion (paletteuse, sierra2_4a). It hands back palette indices, not a GIF: each frame's
 * indices, then the palette (`-pix_fmt pal8`). gif-encoder-2 writes the GIF from them
 * (`encodeIndexedGif`: LZW, each frame's delay, unchanged pixels transparent); docs/adr/0007.
 */
const GIF_FILTER = 'split[a][b];[a]palettegen=reserve_transparent=1[p];[b][p]paletteuse';

export interface EncoderTools {
  ffmpegPath: string;
}

/** A GIF being encoded while its frames come: write them all, then finish. */
export interface GifEncoding extends FrameSink {
  /** The GIF of the frames written, each shown for its delay. */
  finish(delaysMs: readonly number[]): Promise<Buffer>;
  /** Stops the encoder (the clip could not be decoded); finish is not called then. */
  cancel(): void;
}

/**
 * Decoded clips encoded into the thumbnail files: GIF with ffmpeg's palette (FFMPEG_PATH) and
 * gif-encoder-2, MP4 with ffmpeg's libx264, PNG and WebP with sharp, the still's ThumbHash.
 */
export class ThumbnailEncoderRepository {
  constructor(private readonly tools: EncoderTools) {}

  /** A looping GIF of every frame of the clip over one shared palette (a still gives a one-frame GIF). */
  async gif(clip: Clip, signal?: AbortSignal): Promise<Buffer> {
    if (clip.frames.length === 0) throw new Error('clip has no frames');
    signal?.throwIfAborted();
    const encoding = this.startGif(clip, clip.frames.length, signal);
    for (const frame of clip.frames) encoding.write(frame);
    return encoding.finish(clip.delaysMs);
  }

  /**
   * Starts ffmpeg on a GIF of up to `maxFrames` frames of `size`, written to it as raw RGBA while
   * they come; the palette is learned once the last one is in, then the frames are mapped onto it
   * and the GIF is written.
   */
  startGif(size: { width: number; height: number }, maxFrames: number, signal?: AbortSignal): GifEncoding {
    const frames = new PassThrough();
    const stop = new AbortController();
    const run = runTool(
      this.tools.ffmpegPath,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        '-video_size',
        `${size.width}x${size.height}`,
        '-framerate',
        '10',
        '-i',
        'pipe:0',
        '-filter_complex',
        GIF_FILTER,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'pal8',
        'pipe:1',
      ],
      {
        signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
        stdin: frames,
        maxStdoutBytes: maxFrames * pal8FrameBytes(size.width, size.height),
      },
    );
    // a cancelled encoding is never awaited
    run.catch(() => undefined);
    return {
      write: (frame) => void frames.write(frame),
      cancel: () => stop.abort(new Error('GIF encoding cancelled')),
      async finish(delaysMs) {
        frames.end();
        const result = await run;
        if (result.code !== 0)
          throw new Error(
            `ffmpeg could not map the GIF's frames onto a palette (exit ${result.code}): ${result.stderr.trim().split('\n').pop() ?? ''}`,
          );
        signal?.throwIfAborted();
        return encodeIndexedGif(indexedClipOfPal8(result.stdout, size.width, size.height), delaysMs);
      },
    };
  }

  /** The clip's first frame (the representative point) as a PNG. */
  png(clip: Clip): Promise<Buffer> {
    const first = clip.frames[0];
    if (!first) throw new Error('clip has no frames');
    return sharp(first, { raw: { width: clip.width, height: clip.height, channels: 4 } })
      .png({ compressionLevel: 9, adaptiveFiltering: true })
      .toBuffer();
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
    if (count === 1)
      return sharp(clip.frames[0], { raw: { width: clip.width, height: clip.height, channels: 4 } })
        .webp(options)
        .toBuffer();
    const stacked = sharp(Buffer.concat(clip.frames), {
      raw: { width: clip.width, height: clip.height * count, channels: 4, pageHeight: clip.height },
    });
    // `mixed`: libwebp encodes each frame both ways and keeps the smaller, so a frame whose pixels
    // lossless holds in fewer bytes (flat drawings, unchanged areas) is stored exactly
    return stacked
      .webp({ ...options, mixed: true, loop: 0, delay: clip.delaysMs.map((ms) => Math.max(1, ms)) })
      .toBuffer();
  }

  /**
   * Every frame of the clip with its timing as an H.264 MP4 (`encodeMp4`; one second of a still),
   * written by ffmpeg to `outFile` (a file in the job's work dir) and returned.
   */
  mp4(clip: Clip, outFile: string, signal?: AbortSignal): Promise<Buffer> {
    return encodeMp4(this.tools.ffmpegPath, clip, outFile, signal);
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
