import {
  THUMBNAIL_PROGRESS,
  thumbnailFileName,
  type ThumbnailJobPayload,
  type ThumbnailJobResult,
  type ThumbnailType,
} from '@pawlink/contracts';
import type { LogSink } from '@pawlink/service-kit/logger';
import type { RenderLimits } from '../config.js';
import type { DownloadRepository } from '../repositories/download.repository.js';
import type { PostRepository } from '../repositories/post.repository.js';
import type { GifEncoding, ThumbnailEncoderRepository } from '../repositories/thumbnail-encoder.repository.js';
import type { ThumbnailFileRepository } from '../repositories/thumbnail-file.repository.js';
import type { WorkDirRepository } from '../repositories/work-dir.repository.js';
import type { ImageClipService } from './image-clip.service.js';
import type { VideoClipService } from './video-clip.service.js';
import type { Clip, FrameSinkFor } from '../domain/clip.rules.js';
import { clipRequestFor, filesToWrite, mediaKindOf, thumbnailFilesOf } from '../domain/thumbnail-job.rules.js';
import { RetryableJobError, UnsupportedMediaError } from '../domain/thumbnail.errors.js';

/** Reports a job's progress in percent (THUMBNAIL_PROGRESS); the API shows it while clients wait. */
export type ReportProgress = (percent: number) => Promise<void>;

/** The adapters one job goes through, typed by what the service uses so specs can pass fakes. */
export interface ThumbnailRenderDeps {
  posts: Pick<PostRepository, 'findFileByMd5'>;
  workDirs: Pick<WorkDirRepository, 'create'>;
  downloads: Pick<DownloadRepository, 'download'>;
  /** What reads a video's clip and an image's (the clip services, over their repositories). */
  videos: Pick<VideoClipService, 'readClip'>;
  images: Pick<ImageClipService, 'readClip'>;
  encoder: Pick<ThumbnailEncoderRepository, 'gif' | 'startGif' | 'png' | 'webp' | 'mp4' | 'thumbhash'>;
  thumbnails: Pick<ThumbnailFileRepository, 'write' | 'writeThumbhash' | 'exists' | 'hasThumbhash'>;
  logger: LogSink;
  limits: RenderLimits;
  /** Unix ms; the job's duration in its result. */
  now?: () => number;
}

/**
 * One thumbnail job: find the post on the board, refuse types we do not render, download its
 * file into a private work dir and check its md5, decode the representative stretch once, encode
 * the job's files and the still's ThumbHash (docs/adr/0007, 0010, 0013) and publish them. Refusals are UnsupportedMediaError (the job
 * fails for good); anything else may succeed on a retry. Each failure names its class; its
 * message is a detail for the logs, never for clients.
 */
export class ThumbnailRenderService {
  private readonly now: () => number;

  constructor(private readonly deps: ThumbnailRenderDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Renders and publishes the thumbnail; once `signal` is aborted nothing more is published. */
  async render(payload: ThumbnailJobPayload, report: ReportProgress, signal: AbortSignal): Promise<ThumbnailJobResult> {
    const { posts, workDirs, downloads, logger } = this.deps;
    const started = this.now();
    const md5 = payload.md5.toLowerCase();

    const post = await posts.findFileByMd5(md5);
    if (!post) throw new UnsupportedMediaError('post not found on the board', { failure: 'notOnBoard' });
    const ext = post.ext.toLowerCase();
    const kind = mediaKindOf(ext);
    if (!kind) throw new UnsupportedMediaError(`unsupported file type "${ext}"`, { failure: 'unsupportedType' });
    await report(THUMBNAIL_PROGRESS.resolved);

    const workDir = await workDirs.create();
    const streamed: { gif?: GifEncoding } = {};
    try {
      const input = workDir.file(`input.${ext}`);
      const downloaded = await downloads.download(post.url, input, signal);
      // The board or a cache in between served other bytes; a later attempt may get the right ones.
      if (downloaded.md5 !== md5)
        throw new RetryableJobError('mismatch', `downloaded file has md5 ${downloaded.md5}, expected ${md5}`);
      await report(THUMBNAIL_PROGRESS.downloaded);

      const request = clipRequestFor(payload.type, this.deps.limits);
      const [types, hasThumbhash] = await Promise.all([
        this.missingFiles(md5, payload.type),
        this.deps.thumbnails.hasThumbhash(md5),
      ]);
      // A video's frames reach the GIF encoder (an ffmpeg process) while they are decoded, so it
      // works on the core the decoder leaves free instead of after it.
      const gifSink: FrameSinkFor | undefined = types.includes('gif')
        ? (size) => (streamed.gif = this.deps.encoder.startGif(size, request.maxFrames, signal))
        : undefined;
      const clip =
        kind === 'video'
          ? await this.deps.videos.readClip(input, request, signal, gifSink)
          : await this.deps.images.readClip(input, request);
      await report(THUMBNAIL_PROGRESS.decoded);

      const [files, thumbhash] = await Promise.all([
        this.encode(clip, types, signal, streamed.gif, workDir.file('thumbnail.mp4')),
        hasThumbhash ? null : this.deps.encoder.thumbhash(clip),
      ]);
      await report(THUMBNAIL_PROGRESS.encoded);

      await this.publish(md5, files, thumbhash, signal);
      await report(THUMBNAIL_PROGRESS.done);

      const bytes = files.get(payload.type)!;
      const result: ThumbnailJobResult = {
        md5,
        type: payload.type,
        file: thumbnailFileName(md5, payload.type),
        bytes: bytes.length,
        width: clip.width,
        height: clip.height,
        frames: payload.type === 'png' ? 1 : clip.frames.length,
        durationMs: this.now() - started,
        written: [...files.keys()],
      };
      const sizes = Object.fromEntries([...files].map(([type, file]) => [`${type}Bytes`, file.length]));
      logger.info('thumbnail written', { ...result, ext, inputBytes: downloaded.bytes, ...sizes });
      return result;
    } finally {
      // a GIF encoder that was never finished (failed decode, aborted job) waits for frames
      streamed.gif?.cancel();
      await workDir.remove();
    }
  }

  /** The job's files that are not published yet, and always the requested one. */
  private async missingFiles(md5: string, type: ThumbnailType): Promise<ThumbnailType[]> {
    const others = thumbnailFilesOf(type).filter((file) => file !== type);
    const published = await Promise.all(
      others.map(async (file) => ((await this.deps.thumbnails.exists(md5, file)) ? [file] : [])),
    );
    return filesToWrite(type, new Set(published.flat()));
  }

  /**
   * Encodes the files at once, in publishing order: the GIF and the MP4 run in ffmpeg processes
   * and the WebP and PNG on libvips threads, so together they take about as long as the slowest
   * alone (on two cores), not the sum. ffmpeg writes the MP4 to `mp4File` (in the work dir).
   */
  private async encode(
    clip: Clip,
    types: readonly ThumbnailType[],
    signal: AbortSignal,
    streamedGif: GifEncoding | undefined,
    mp4File: string,
  ): Promise<Map<ThumbnailType, Buffer>> {
    const { encoder } = this.deps;
    signal.throwIfAborted();
    const encoders: Record<ThumbnailType, () => Promise<Buffer>> = {
      gif: () => streamedGif?.finish(clip.delaysMs) ?? encoder.gif(clip, signal),
      webp: () => encoder.webp(clip, signal),
      mp4: () => encoder.mp4(clip, mp4File, signal),
      png: () => encoder.png(clip),
    };
    const encoded = await Promise.all(types.map((type) => encoders[type]()));
    return new Map(types.map((type, i) => [type, encoded[i]!]));
  }

  /**
   * Writes the files in order, the ThumbHash right after the PNG (the still it describes), checking
   * before each that the job has not been given up (timed out, cancelled).
   */
  private async publish(
    md5: string,
    files: Map<ThumbnailType, Buffer>,
    thumbhash: Buffer | null,
    signal: AbortSignal,
  ): Promise<void> {
    const writes: Array<() => Promise<string>> = [];
    for (const [type, bytes] of files) {
      writes.push(() => this.deps.thumbnails.write(md5, type, bytes));
      if (type === 'png' && thumbhash) writes.push(() => this.deps.thumbnails.writeThumbhash(md5, thumbhash));
    }
    if (!files.has('png') && thumbhash) writes.unshift(() => this.deps.thumbnails.writeThumbhash(md5, thumbhash));
    for (const write of writes) {
      signal.throwIfAborted();
      await write();
    }
  }
}
