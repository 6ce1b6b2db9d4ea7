/*
 * The GIF part of `pnpm bench thumbs`: the worker's GIF (ffmpeg's palettegen/paletteuse as palette
 * indices, written by gif-encoder-2) against ffmpeg's own GIF of the very same decoded frames (the
 * same filter and its GIF encoder, as the worker wrote it before). Bytes, how close each is to the
 * decoded frames, how many pixels differ between the two, and each one's wall and CPU time (this
 * process and its reaped ffmpeg), with ours split into ffmpeg's palette mapping and the JS writing.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { encodeIndexedGif } from '../src/repositories/indexed-gif-encoder.repository.js';
import { ImageRepository } from '../src/repositories/image.repository.js';
import { ThumbnailEncoderRepository } from '../src/repositories/thumbnail-encoder.repository.js';
import { runTool } from '../src/repositories/tool-process.repository.js';
import { VideoRepository } from '../src/repositories/video.repository.js';
import { ImageClipService } from '../src/services/image-clip.service.js';
import { VideoClipService } from '../src/services/video-clip.service.js';
import type { Clip } from '../src/domain/clip.rules.js';
import { indexedClipOfPal8 } from '../src/domain/gif-frames.rules.js';
import { clipRequestFor } from '../src/domain/thumbnail-job.rules.js';
import { psnrLuma, psnrRgb, ssimLuma } from './image-quality.js';
import { cpuMs } from './proc-stats.js';
import type { Quality, WebpInput } from './webp-comparison.js';
import { IMAGE_EXTS, WORKER_LIMITS, median } from './bench-inputs.js';

export interface Timing {
  wallMs: number;
  cpuMs: number;
}

export interface GifMeasure {
  name: string;
  frames: number;
  ours: Timing;
  /** Ours in two steps: ffmpeg's palette mapping (pal8 out), then gif-encoder-2 alone. */
  mapping: Timing;
  writing: Timing;
  ffmpeg: Timing;
  oursBytes: number;
  ffmpegBytes: number;
  oursQuality: Quality;
  ffmpegQuality: Quality;
  /** Pixels (of all frames) whose decoded RGBA differs between the two GIFs. */
  differingPixels: number;
  pixels: number;
}

const FILTER = 'split[a][b];[a]palettegen=reserve_transparent=1[p];[b][p]paletteuse';

async function timed<T>(work: () => Promise<T>): Promise<{ value: T } & Timing> {
  const cpuBefore = await cpuMs('self');
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  return { value, wallMs, cpuMs: (await cpuMs('self')) - cpuBefore };
}

/** ffmpeg with the worker's filter on the clip's raw frames, writing `format` to stdout. */
async function ffmpegOf(clip: Clip, output: string[]): Promise<Buffer> {
  const result = await runTool(
    'ffmpeg',
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
      `${clip.width}x${clip.height}`,
      '-framerate',
      '10',
      '-i',
      'pipe:0',
      '-filter_complex',
      FILTER,
      ...output,
      'pipe:1',
    ],
    { stdin: Buffer.concat(clip.frames), maxStdoutBytes: 1 << 30 },
  );
  if (result.code !== 0) throw new Error(`ffmpeg exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

const decodeRgba = async (gif: Buffer): Promise<Buffer> =>
  (await sharp(gif, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true })).data;

function quality(rgba: Buffer, clip: Clip): Quality {
  const pair = { actual: rgba, expected: Buffer.concat(clip.frames), width: clip.width, height: clip.height };
  return { psnrRgb: psnrRgb(pair), psnrLuma: psnrLuma(pair), ssimLuma: ssimLuma(pair) };
}

function differingPixels(a: Buffer, b: Buffer): number {
  let count = Math.abs(a.length - b.length) / 4;
  for (let i = 0; i < Math.min(a.length, b.length); i += 4) {
    // a transparent pixel's colour is whatever the decoder leaves there
    const bothClear = a[i + 3] === 0 && b[i + 3] === 0;
    if (!bothClear && a.readUInt32LE(i) !== b.readUInt32LE(i)) count++;
  }
  return count;
}

/** Decodes each input as a gif job does, then makes both GIFs of the same frames `runs` times, alternating. */
export async function measureGif(inputs: readonly WebpInput[], runs: number): Promise<GifMeasure[]> {
  const videos = new VideoClipService(new VideoRepository({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' }));
  const images = new ImageClipService(new ImageRepository());
  const encoder = new ThumbnailEncoderRepository({ ffmpegPath: 'ffmpeg' });
  const request = clipRequestFor('gif', WORKER_LIMITS);
  const results: GifMeasure[] = [];
  for (const input of inputs) {
    const clip = IMAGE_EXTS.includes(input.ext)
      ? await images.readClip(input.file, request)
      : await videos.readClip(input.file, request);
    const times = { ours: [] as Timing[], mapping: [] as Timing[], writing: [] as Timing[], ffmpeg: [] as Timing[] };
    let ours: Buffer = Buffer.alloc(0);
    let reference: Buffer = Buffer.alloc(0);
    for (let run = 0; run < runs; run++) {
      const mine = await timed(() => encoder.gif(clip));
      const theirs = await timed(() => ffmpegOf(clip, ['-loop', '0', '-f', 'gif']));
      const mapped = await timed(() => ffmpegOf(clip, ['-f', 'rawvideo', '-pix_fmt', 'pal8']));
      const written = await timed(() =>
        Promise.resolve(encodeIndexedGif(indexedClipOfPal8(mapped.value, clip.width, clip.height), clip.delaysMs)),
      );
      times.ours.push(mine);
      times.ffmpeg.push(theirs);
      times.mapping.push(mapped);
      times.writing.push(written);
      [ours, reference] = [mine.value, theirs.value];
    }
    const middle = (list: Timing[]): Timing => ({
      wallMs: median(list.map((t) => t.wallMs)),
      cpuMs: median(list.map((t) => t.cpuMs)),
    });
    const [oursRgba, referenceRgba] = [await decodeRgba(ours), await decodeRgba(reference)];
    results.push({
      name: input.name,
      frames: clip.frames.length,
      ours: middle(times.ours),
      mapping: middle(times.mapping),
      writing: middle(times.writing),
      ffmpeg: middle(times.ffmpeg),
      oursBytes: ours.length,
      ffmpegBytes: reference.length,
      oursQuality: quality(oursRgba, clip),
      ffmpegQuality: quality(referenceRgba, clip),
      differingPixels: differingPixels(oursRgba, referenceRgba),
      pixels: clip.width * clip.height * clip.frames.length,
    });
  }
  return results;
}
