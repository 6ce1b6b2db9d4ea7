import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BoardClient } from '@pawlink/board';
import { THUMBNAIL_PROGRESS, type ThumbnailJobPayload, type ThumbnailJobResult, type ThumbnailType } from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit';
import type { WorkerConfig } from './config.js';
import { writeFileAtomically } from './media/atomic-file.js';
import type { Clip } from './media/clip.js';
import { downloadToFile } from './media/download.js';
import { encodeGif, encodePng } from './media/encode.js';
import { readImageClip } from './media/image.js';
import { UnsupportedMediaError } from './media/media.errors.js';
import { probeVideo, readVideoClip } from './media/video.js';
import { DOWNLOAD_DIR_PREFIX } from './stale-temp-files.js';

const VIDEO_EXTENSIONS = new Set(['webm', 'mp4', 'm4v', 'mov']);
const IMAGE_EXTENSIONS = new Set(['gif', 'png', 'jpg', 'jpeg', 'webp', 'avif']);

export interface GenerateDeps {
  config: WorkerConfig;
  board: BoardClient;
  logger: Logger;
  fetch?: typeof fetch;
}

export type ReportProgress = (percent: number) => Promise<void>;

/** Thumbnail file name under MEDIA_DIR/thumbs. */
export const thumbnailFileName = (md5: string, type: ThumbnailType): string => `${md5}.${type}`;

async function decode(file: string, ext: string, frames: number, config: WorkerConfig, signal: AbortSignal): Promise<Clip> {
  const { limits } = config;
  const common = { box: limits.size, maxFps: limits.fps, maxFrames: frames, clipSeconds: limits.maxDurationSeconds, maxInputPixels: limits.maxInputPixels };
  if (VIDEO_EXTENSIONS.has(ext)) {
    const tools = { ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, signal };
    const probe = await probeVideo(file, tools);
    return readVideoClip(file, probe, { ...tools, ...common });
  }
  return readImageClip(file, common);
}

/**
 * One job: find the post, download its file, decode the representative stretch, encode and
 * place the thumbnail. A GIF job also writes the PNG (its first frame, already decoded); a PNG
 * job decodes a single frame.
 */
export async function generateThumbnail(payload: ThumbnailJobPayload, deps: GenerateDeps, report: ReportProgress, signal: AbortSignal): Promise<ThumbnailJobResult> {
  const { config, board, logger } = deps;
  const started = Date.now();
  const md5 = payload.md5.toLowerCase();

  const post = await board.getPostByMd5(md5);
  if (!post) throw new UnsupportedMediaError('post not found on the board');
  const ext = post.ext.toLowerCase();
  if (!VIDEO_EXTENSIONS.has(ext) && !IMAGE_EXTENSIONS.has(ext)) throw new UnsupportedMediaError(`unsupported file type "${ext}"`);
  await report(THUMBNAIL_PROGRESS.resolved);

  const workDir = await mkdtemp(path.join(config.tmpDir, DOWNLOAD_DIR_PREFIX));
  try {
    const input = path.join(workDir, `input.${ext}`);
    const downloaded = await downloadToFile(board.fileUrl(post), input, {
      userAgent: config.board.userAgent, maxBytes: config.maxDownloadBytes, timeoutMs: config.downloadTimeoutMs, signal, fetch: deps.fetch,
    });
    if (downloaded.md5 !== md5) throw new Error(`downloaded file has md5 ${downloaded.md5}, expected ${md5}`);
    await report(THUMBNAIL_PROGRESS.downloaded);

    const clip = await decode(input, ext, payload.type === 'gif' ? config.limits.maxFrames : 1, config, signal);
    await report(THUMBNAIL_PROGRESS.decoded);

    const png = await encodePng(clip);
    const gif = payload.type === 'gif' ? encodeGif(clip, signal) : undefined;
    await report(THUMBNAIL_PROGRESS.encoded);

    // A job already failed as timeout must not publish anything afterwards.
    signal.throwIfAborted();
    await writeFileAtomically(config.thumbsDir, thumbnailFileName(md5, 'png'), png);
    signal.throwIfAborted();
    if (gif) await writeFileAtomically(config.thumbsDir, thumbnailFileName(md5, 'gif'), gif);
    await report(THUMBNAIL_PROGRESS.done);

    const result: ThumbnailJobResult = {
      md5, type: payload.type, file: thumbnailFileName(md5, payload.type), bytes: (gif ?? png).length,
      width: clip.width, height: clip.height, frames: gif ? clip.frames.length : 1, durationMs: Date.now() - started,
    };
    logger.info('thumbnail written', { ...result, ext, inputBytes: downloaded.bytes, pngBytes: png.length });
    return result;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
