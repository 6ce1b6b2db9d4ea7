import GIFEncoder from 'gif-encoder-2';
import sharp from 'sharp';
import type { Clip } from './clip.js';

/** A looping GIF of every frame of the clip (a still gives a one-frame GIF). */
export function encodeGif(clip: Clip, signal?: AbortSignal): Buffer {
  const encoder = new GIFEncoder(clip.width, clip.height, 'neuquant', true, clip.frames.length);
  encoder.setRepeat(0);
  encoder.setQuality(10);
  encoder.start();
  clip.frames.forEach((frame, i) => {
    // The encoder is synchronous JavaScript; checking between frames keeps a timed-out job short.
    signal?.throwIfAborted();
    encoder.setDelay(clip.delaysMs[i] ?? 100);
    encoder.addFrame(frame);
  });
  encoder.finish();
  return encoder.out.getData();
}

/** The clip's first frame (the representative point) as a PNG. */
export function encodePng(clip: Clip): Promise<Buffer> {
  const first = clip.frames[0];
  if (!first) throw new Error('clip has no frames');
  return sharp(first, { raw: { width: clip.width, height: clip.height, channels: 4 } }).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
}
