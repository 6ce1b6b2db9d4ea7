import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Clip } from '../domain/clip.rules.js';
import { mp4Filter, mp4Timeline } from '../domain/mp4-frames.rules.js';
import { runTool } from './tool-process.repository.js';

/**
 * x264's rate factor and speed preset for the MP4. Chosen on `pnpm bench thumbs` (section mp4,
 * docs/adr/0014): crf 20 is the lowest tried whose luma SSIM is at or above the GIF's on every
 * benchmark video, at 0.12–0.15× the GIF's bytes (crf 23: 0.09–0.11×, SSIM below the GIF's). The
 * preset barely changes the bytes at 320 px; medium (x264's default) costs ~0.2 s of CPU.
 */
export const MP4_CRF = 20;
export const MP4_PRESET = 'medium';

export interface Mp4Settings {
  crf: number;
  preset: string;
}

/**
 * Encodes every frame of the clip, with its timing, as an H.264 MP4 (yuv420p, even size, no
 * audio, `moov` before `mdat` so a player starts before the whole file is in) through ffmpeg's
 * libx264. The MP4 muxer seeks back to write the index, so ffmpeg writes `outFile` (in the job's
 * work dir) rather than a pipe; its bytes are returned.
 */
export async function encodeMp4(
  ffmpegPath: string,
  clip: Clip,
  outFile: string,
  signal?: AbortSignal,
  settings: Mp4Settings = { crf: MP4_CRF, preset: MP4_PRESET },
): Promise<Buffer> {
  if (clip.frames.length === 0) throw new Error('clip has no frames');
  signal?.throwIfAborted();
  const timeline = mp4Timeline(clip.delaysMs);
  const frames = Readable.from(timeline.frames.map((index) => clip.frames[index]!));
  const result = await runTool(
    ffmpegPath,
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
      timeline.fps,
      '-i',
      'pipe:0',
      '-vf',
      mp4Filter(clip.width, clip.height),
      '-an',
      '-c:v',
      'libx264',
      '-preset',
      settings.preset,
      '-crf',
      String(settings.crf),
      '-pix_fmt',
      'yuv420p',
      '-profile:v',
      'high',
      '-colorspace',
      'smpte170m',
      '-color_primaries',
      'smpte170m',
      '-color_trc',
      'smpte170m',
      '-color_range',
      'tv',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-y',
      outFile,
    ],
    { signal, stdin: frames, maxStdoutBytes: 64 * 1024 },
  );
  if (result.code !== 0)
    throw new Error(
      `ffmpeg could not encode the MP4 (exit ${result.code}): ${result.stderr.trim().split('\n').pop() ?? ''}`,
    );
  signal?.throwIfAborted();
  return readFile(outFile);
}
