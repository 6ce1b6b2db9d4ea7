import type { ThumbnailType } from '@pawlink/contracts';
import type { ClipRequest } from './clip.rules.js';

/** Limits against hostile media and the shape of the output. */
export interface RenderLimits {
  /** Largest width×height of one input frame. */
  maxInputPixels: number;
  /** Most frames decoded for one thumbnail. */
  maxFrames: number;
  /** Longest stretch of an animation or video read, seconds. */
  maxDurationSeconds: number;
  /** Output bounding box, pixels. */
  size: number;
  /** Highest frame rate of the GIF. */
  fps: number;
}

/** Which decoder reads a file: ffmpeg for videos, sharp for images. */
export type MediaKind = 'video' | 'image';

const MEDIA_KINDS: Readonly<Record<string, MediaKind>> = {
  webm: 'video',
  mp4: 'video',
  m4v: 'video',
  mov: 'video',
  gif: 'image',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
  avif: 'image',
};

/** The decoder for a board file extension (any case); undefined for types we do not render (swf, zip, …). */
export const mediaKindOf = (ext: string): MediaKind | undefined =>
  Object.hasOwn(MEDIA_KINDS, ext.toLowerCase()) ? MEDIA_KINDS[ext.toLowerCase()] : undefined;

/**
 * The files a job may write, in the order it publishes them, the requested one last. One decode
 * serves several: the clip's first frame is the representative point, so every job can write the
 * PNG, and a `gif` job also writes the WebP from the same frames (encoded alongside the GIF, it
 * adds 0–0.4× to the GIF+PNG job's time, depending on whether a core is free). A `webp` job does
 * not write the GIF: its encode alone takes ~1.5–2× the WebP's, for a file its client did not ask
 * for. An `mp4` job writes the PNG and the MP4; a `gif` job does not write the MP4: beside the
 * GIF, WebP and PNG it added 1.16–1.26× to the whole gif job's CPU (and more wall when the second
 * core is busy), on every gif job, for a file that bots wanting a video ask for instead of the
 * GIF. A `png` job decodes a single frame, which no animation can be made from. Numbers:
 * docs/adr/0010, 0013 and `pnpm bench thumbs`.
 */
export const thumbnailFilesOf = (type: ThumbnailType): readonly ThumbnailType[] => THUMBNAIL_FILES[type];

const THUMBNAIL_FILES: Readonly<Record<ThumbnailType, readonly ThumbnailType[]>> = {
  gif: ['png', 'webp', 'gif'],
  webp: ['png', 'webp'],
  mp4: ['png', 'mp4'],
  png: ['png'],
};

/**
 * Of the files a `type` job may write, those it does write: the requested one always (a client
 * asked because it was missing), the others only when they are not published yet.
 */
export function filesToWrite(type: ThumbnailType, published: ReadonlySet<ThumbnailType>): ThumbnailType[] {
  return thumbnailFilesOf(type).filter((file) => file === type || !published.has(file));
}

/** What the decoder is asked for: the whole clip for an animated type, a single frame for a `png` job. */
export function clipRequestFor(type: ThumbnailType, limits: RenderLimits): ClipRequest {
  return {
    box: limits.size,
    maxFps: limits.fps,
    maxFrames: type === 'png' ? 1 : limits.maxFrames,
    clipSeconds: limits.maxDurationSeconds,
    maxInputPixels: limits.maxInputPixels,
  };
}
