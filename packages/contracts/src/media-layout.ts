import type { ThumbnailType } from './thumbs.js';

/**
 * Where files live under MEDIA_DIR, which nginx serves: thumbnails under `thumbs/` as
 * MEDIA_URL, image files under `images/` as IMAGES_MEDIA_URL (docs/api.md §4). Paths use `/`: every
 * process runs on Linux.
 */
export const THUMBNAILS_DIR = 'thumbs';
export const IMAGES_DIR = 'images';

export const thumbnailsDir = (mediaDir: string): string => `${mediaDir.replace(/\/+$/, '')}/${THUMBNAILS_DIR}`;
export const imagesDir = (mediaDir: string): string => `${mediaDir.replace(/\/+$/, '')}/${IMAGES_DIR}`;

/** `<md5>.<type>`: the thumbnail's file name, and its path under MEDIA_URL. */
export const thumbnailFileName = (md5: string, type: ThumbnailType): string => `${md5}.${type}`;

/**
 * `<md5>.thumbhash`: the ThumbHash of a post's still (its raw bytes), beside its thumbnails. Not a
 * type clients ask for, and not served by nginx (media.conf serves image extensions only).
 */
export const thumbhashFileName = (md5: string): string => `${md5}.thumbhash`;

/** `<id>.<ext>`: an image's file name, and its path under IMAGES_MEDIA_URL. */
export const imageFileName = (id: string, ext: string): string => `${id}.${ext}`;
