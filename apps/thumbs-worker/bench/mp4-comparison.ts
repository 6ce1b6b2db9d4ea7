/*
 * The MP4 part of `pnpm bench thumbs`: the worker's decoder and encoders run in this process on
 * each input, so the GIF and the MP4 come from the very same decoded frames. Reports the MP4's
 * bytes against the GIF's, its encode time (wall, and CPU of this process and its reaped
 * ffmpeg), how close each is to the decoded frames (PSNR over RGB and luma, SSIM over luma, the
 * MP4 decoded back by ffmpeg), x264 settings around the chosen ones, and what writing the MP4 too
 * would add to a gif job (GIF streamed during a video's decode, PNG, WebP, ThumbHash at once).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { ImageRepository } from '../src/repositories/image.repository.js';
import { encodeMp4, MP4_CRF, MP4_PRESET, type Mp4Settings } from '../src/repositories/mp4-encoder.repository.js';
import { ThumbnailEncoderRepository, type GifEncoding } from '../src/repositories/thumbnail-encoder.repository.js';
import { runTool } from '../src/repositories/tool-process.repository.js';
import { VideoRepository } from '../src/repositories/video.repository.js';
import { ImageClipService } from '../src/services/image-clip.service.js';
import { VideoClipService } from '../src/services/video-clip.service.js';
import type { Clip } from '../src/domain/clip.rules.js';
import { mp4FrameSize, mp4Timeline } from '../src/domain/mp4-frames.rules.js';
import { clipRequestFor } from '../src/domain/thumbnail-job.rules.js';
import type { Timing } from './gif-comparison.js';
import { psnrLuma, psnrRgb, ssimLuma } from './image-quality.js';
import { cpuMs } from './proc-stats.js';
import type { Quality, WebpInput } from './webp-comparison.js';
import { IMAGE_EXTS, WORKER_LIMITS, median } from './bench-inputs.js';

export interface Mp4Variant extends Mp4Settings {
  bytes: number;
  encode: Timing;
  quality: Quality;
}

export interface Mp4Measure {
  name: string;
  frames: number;
  width: number;
  height: number;
  gifBytes: number;
  gifEncode: Timing;
  gifQuality: Quality;
  /** The worker's settings (MP4_CRF, MP4_PRESET), median encode of the runs. */
  chosen: Mp4Variant;
  /** Other crf/preset pairs, one run each. */
  variants: Mp4Variant[];
  /** Median wall of a gif job's decode and encodes (GIF, PNG, WebP, ThumbHash), without and with the MP4. */
  gifJobMs: number;
  gifJobWithMp4Ms: number;
  /** The same, CPU of this process and its ffmpeg. */
  gifJobCpuMs: number;
  gifJobWithMp4CpuMs: number;
  /** Median wall and CPU of an mp4 job's decode and encodes (PNG, MP4, ThumbHash), as the worker runs it. */
  mp4JobMs: number;
  mp4JobCpuMs: number;
}

/** crf/preset pairs around the chosen one, for the record of why it was chosen. */
const VARIANTS: Mp4Settings[] = [
  { crf: 18, preset: MP4_PRESET },
  { crf: 23, preset: MP4_PRESET },
  { crf: 26, preset: MP4_PRESET },
  { crf: MP4_CRF, preset: 'veryfast' },
  { crf: MP4_CRF, preset: 'slow' },
];

async function timed<T>(work: () => Promise<T>): Promise<{ value: T } & Timing> {
  const cpuBefore = await cpuMs('self');
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  return { value, wallMs, cpuMs: (await cpuMs('self')) - cpuBefore };
}

/** The top-left `width`×`height` of an RGBA frame `fromWidth` wide (the MP4 drops an odd last row or column). */
function cropRgba(frame: Buffer, fromWidth: number, width: number, height: number): Buffer {
  if (fromWidth === width && frame.length === width * height * 4) return frame;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) frame.copy(out, y * width * 4, y * fromWidth * 4, y * fromWidth * 4 + width * 4);
  return out;
}

/** The MP4's frames, decoded by ffmpeg, against the clip frames each shows. */
async function mp4Quality(mp4File: string, clip: Clip): Promise<Quality> {
  const size = mp4FrameSize(clip.width, clip.height);
  const decoded = await runTool(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', mp4File, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'],
    { maxStdoutBytes: 1 << 30 },
  );
  if (decoded.code !== 0) throw new Error(`ffmpeg could not decode the MP4: ${decoded.stderr}`);
  const width = Math.min(size.width, clip.width);
  const height = Math.min(size.height, clip.height);
  const expected = Buffer.concat(
    mp4Timeline(clip.delaysMs).frames.map((i) => cropRgba(clip.frames[i]!, clip.width, width, height)),
  );
  const actual =
    size.width === width && size.height === height
      ? decoded.stdout
      : Buffer.concat(
          Array.from({ length: Math.floor(decoded.stdout.length / (size.width * size.height * 4)) }, (_, f) =>
            cropRgba(
              decoded.stdout.subarray(f * size.width * size.height * 4, (f + 1) * size.width * size.height * 4),
              size.width,
              width,
              height,
            ),
          ),
        );
  const pair = { actual, expected, width, height };
  return { psnrRgb: psnrRgb(pair), psnrLuma: psnrLuma(pair), ssimLuma: ssimLuma(pair) };
}

async function gifQuality(gif: Buffer, clip: Clip): Promise<Quality> {
  const { data } = await sharp(gif, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pair = { actual: data, expected: Buffer.concat(clip.frames), width: clip.width, height: clip.height };
  return { psnrRgb: psnrRgb(pair), psnrLuma: psnrLuma(pair), ssimLuma: ssimLuma(pair) };
}

/** Decodes each input as a gif job does; GIF and MP4 of the same frames; whole gif jobs with and without the MP4, `runs` times each. */
export async function measureMp4(inputs: readonly WebpInput[], runs: number): Promise<Mp4Measure[]> {
  const videos = new VideoClipService(new VideoRepository({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' }));
  const images = new ImageClipService(new ImageRepository());
  const encoder = new ThumbnailEncoderRepository({ ffmpegPath: 'ffmpeg' });
  const request = clipRequestFor('gif', WORKER_LIMITS);
  const isImage = (input: WebpInput): boolean => IMAGE_EXTS.includes(input.ext);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-bench-mp4-'));
  let n = 0;
  const outFile = (): string => path.join(dir, `out-${n++}.mp4`);

  /** A gif job after its download, as the worker runs it; with the MP4 encoded beside the others when `withMp4`. */
  async function job(input: WebpInput, withMp4: boolean): Promise<Timing> {
    const run = await timed(async () => {
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
      await Promise.all([
        gif,
        encoder.png(clip),
        encoder.webp(clip),
        encoder.thumbhash(clip),
        ...(withMp4 ? [encodeMp4('ffmpeg', clip, outFile())] : []),
      ]);
    });
    return { wallMs: run.wallMs, cpuMs: run.cpuMs };
  }

  /** An mp4 job after its download, as the worker runs it: decode, then PNG, MP4 and ThumbHash at once. */
  async function mp4Job(input: WebpInput): Promise<Timing> {
    const run = await timed(async () => {
      const clip = isImage(input)
        ? await images.readClip(input.file, request)
        : await videos.readClip(input.file, request);
      await Promise.all([encoder.png(clip), encodeMp4('ffmpeg', clip, outFile()), encoder.thumbhash(clip)]);
    });
    return { wallMs: run.wallMs, cpuMs: run.cpuMs };
  }

  const variant = async (clip: Clip, settings: Mp4Settings, times: number): Promise<Mp4Variant> => {
    const encodes: Array<Timing & { file: string; bytes: number }> = [];
    for (let i = 0; i < times; i++) {
      const file = outFile();
      const encoded = await timed(() => encodeMp4('ffmpeg', clip, file, undefined, settings));
      encodes.push({ wallMs: encoded.wallMs, cpuMs: encoded.cpuMs, file, bytes: encoded.value.length });
    }
    return {
      ...settings,
      bytes: encodes[0]!.bytes,
      encode: { wallMs: median(encodes.map((e) => e.wallMs)), cpuMs: median(encodes.map((e) => e.cpuMs)) },
      quality: await mp4Quality(encodes[0]!.file, clip),
    };
  };

  const results: Mp4Measure[] = [];
  try {
    for (const input of inputs) {
      const clip = isImage(input)
        ? await images.readClip(input.file, request)
        : await videos.readClip(input.file, request);
      const gif = await timed(() => encoder.gif(clip));
      const chosen = await variant(clip, { crf: MP4_CRF, preset: MP4_PRESET }, runs);
      const variants: Mp4Variant[] = [];
      for (const settings of VARIANTS) variants.push(await variant(clip, settings, 1));
      const without: Timing[] = [];
      const withMp4: Timing[] = [];
      const mp4Jobs: Timing[] = [];
      for (let run = 0; run < runs; run++) {
        without.push(await job(input, false));
        withMp4.push(await job(input, true));
        mp4Jobs.push(await mp4Job(input));
      }
      results.push({
        name: input.name,
        frames: clip.frames.length,
        width: clip.width,
        height: clip.height,
        gifBytes: gif.value.length,
        gifEncode: { wallMs: gif.wallMs, cpuMs: gif.cpuMs },
        gifQuality: await gifQuality(gif.value, clip),
        chosen,
        variants,
        gifJobMs: median(without.map((t) => t.wallMs)),
        gifJobWithMp4Ms: median(withMp4.map((t) => t.wallMs)),
        gifJobCpuMs: median(without.map((t) => t.cpuMs)),
        gifJobWithMp4CpuMs: median(withMp4.map((t) => t.cpuMs)),
        mp4JobMs: median(mp4Jobs.map((t) => t.wallMs)),
        mp4JobCpuMs: median(mp4Jobs.map((t) => t.cpuMs)),
      });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}

export { MP4_CRF, MP4_PRESET };
