import type { ThumbnailType } from '@pawlink/contracts';
import type { RenderLimits } from '../config.js';
import type { ClipRequest } from './clip.rules.js';

/** Which decoder reads a file: ffmpeg for videos, sharp for images. */
export type MediaKind = 'video' | 'image';

const MEDIA_KINDS: Readonly<Record<string, MediaKind>> = {
  webm: 'video', mp4: 'video', m4v: 'video', mov: 'video',
  gif: 'image', png: 'image', jpg: 'image', jpeg: 'image', webp: 'image', avif: 'image',
};

/** The decoder for a board file extension (any case); undefined for types we do not render (swf, zip, …). */
export const mediaKindOf = (ext: string): MediaKind | undefined => (Object.hasOwn(MEDIA_KINDS, ext.toLowerCase()) ? MEDIA_KINDS[ext.toLowerCase()] : undefined);

/**
 * The files a job writes, in the order it publishes them. One decode serves both: a `gif` job also
 * writes the PNG (the clip's first frame is the representative point), a `png` job only the PNG.
 */
export const thumbnailFilesOf = (type: ThumbnailType): readonly ThumbnailType[] => (type === 'gif' ? ['png', 'gif'] : ['png']);

/** What the decoder is asked for: the whole clip for a `gif` job, a single frame for a `png` job. */
export function clipRequestFor(type: ThumbnailType, limits: RenderLimits): ClipRequest {
  return {
    box: limits.size,
    maxFps: limits.fps,
    maxFrames: type === 'gif' ? limits.maxFrames : 1,
    clipSeconds: limits.maxDurationSeconds,
    maxInputPixels: limits.maxInputPixels,
  };
}
