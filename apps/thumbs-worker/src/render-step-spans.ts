import { inSpan } from '@pawlink/service-kit/telemetry-hooks';
import type { ThumbnailRenderDeps } from './services/thumbnail-render.service.js';

type Steps = Pick<ThumbnailRenderDeps, 'posts' | 'downloads' | 'videos' | 'images' | 'encoder' | 'thumbnails'>;

/**
 * The render service's steps, each in a span under the job's (processor thread, traces on): the
 * board lookup, the download, the decode (ffmpeg or sharp), each encoding (the GIF's palette in
 * ffmpeg and gif-encoder-2, the MP4 in ffmpeg, PNG and WebP in sharp, the ThumbHash) and each file
 * written. Attributes name the step and the file type, never a URL or a path.
 */
export function renderStepSpans(steps: Steps): Steps {
  const { posts, downloads, videos, images, encoder, thumbnails } = steps;
  return {
    ...steps,
    posts: { findFileByMd5: (md5) => inSpan('board lookup', () => posts.findFileByMd5(md5)) },
    downloads: {
      download: (url, file, signal) => inSpan('download', () => downloads.download(url, file, signal)),
    },
    videos: {
      readClip: (file, request, signal, sinkFor) =>
        inSpan('decode video', () => videos.readClip(file, request, signal, sinkFor), {
          attributes: { 'pawlink.tool': 'ffmpeg' },
        }),
    },
    images: {
      readClip: (file, request) =>
        inSpan('decode image', () => images.readClip(file, request), { attributes: { 'pawlink.tool': 'sharp' } }),
    },
    encoder: {
      gif: (clip, signal) => inSpan('encode gif', () => encoder.gif(clip, signal), gifTools),
      // Streamed: the frames go in while the video decodes; the span is the finish (palette, then GIF).
      startGif: (size, maxFrames, signal) => {
        const encoding = encoder.startGif(size, maxFrames, signal);
        return { ...encoding, finish: (delaysMs) => inSpan('encode gif', () => encoding.finish(delaysMs), gifTools) };
      },
      mp4: (clip, file, signal) =>
        inSpan('encode mp4', () => encoder.mp4(clip, file, signal), { attributes: { 'pawlink.tool': 'ffmpeg' } }),
      webp: (clip, signal) =>
        inSpan('encode webp', () => encoder.webp(clip, signal), { attributes: { 'pawlink.tool': 'sharp' } }),
      png: (clip) => inSpan('encode png', () => encoder.png(clip), { attributes: { 'pawlink.tool': 'sharp' } }),
      thumbhash: (clip) => inSpan('thumbhash', () => encoder.thumbhash(clip)),
    },
    thumbnails: {
      exists: (md5, type) => thumbnails.exists(md5, type),
      hasThumbhash: (md5) => thumbnails.hasThumbhash(md5),
      write: (md5, type, bytes) =>
        inSpan('write file', () => thumbnails.write(md5, type, bytes), {
          attributes: { 'pawlink.thumbnail.type': type, 'pawlink.file.bytes': bytes.length },
        }),
      writeThumbhash: (md5, bytes) =>
        inSpan('write file', () => thumbnails.writeThumbhash(md5, bytes), {
          attributes: { 'pawlink.thumbnail.type': 'thumbhash', 'pawlink.file.bytes': bytes.length },
        }),
    },
  };
}

const gifTools = { attributes: { 'pawlink.tool': 'ffmpeg palette, gif-encoder-2' } };
