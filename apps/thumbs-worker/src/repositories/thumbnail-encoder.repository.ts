import GIFEncoder, { type GifQuantizer } from 'gif-encoder-2';
import NeuQuant from 'gif-encoder-2/src/TypedNeuQuant.js';
import sharp from 'sharp';
import type { Clip } from '../services/clip.rules.js';

/** Frames sampled to learn the shared palette; enough to see a 3 s clip's colours. */
const PALETTE_SAMPLE_FRAMES = 6;
const NEUQUANT_SAMPLE_FACTOR = 10;

/**
 * One palette for the whole clip, learned from a few frames spread across it (what ffmpeg's
 * palettegen does). Learning per frame is most of gif-encoder-2's time and makes colours
 * flicker between frames (docs/adr/0007).
 */
function learnPalette(clip: Clip): GifQuantizer {
  const count = Math.min(PALETTE_SAMPLE_FRAMES, clip.frames.length);
  const pixelsPerFrame = clip.width * clip.height;
  const rgb = new Uint8Array(count * pixelsPerFrame * 3);
  let out = 0;
  for (let s = 0; s < count; s++) {
    const frame = clip.frames[Math.floor((s * clip.frames.length) / count)]!;
    for (let i = 0; i < frame.length; i += 4) {
      rgb[out++] = frame[i]!;
      rgb[out++] = frame[i + 1]!;
      rgb[out++] = frame[i + 2]!;
    }
  }
  const quantizer = new NeuQuant(rgb, NEUQUANT_SAMPLE_FACTOR);
  quantizer.buildColormap();
  return quantizer;
}

/** Decoded clips encoded into the thumbnail files: GIF with gif-encoder-2, PNG with sharp. */
export class ThumbnailEncoderRepository {
  /** A looping GIF of every frame of the clip over one shared palette (a still gives a one-frame GIF). */
  gif(clip: Clip, signal?: AbortSignal): Buffer {
    const encoder = new GIFEncoder(clip.width, clip.height, 'neuquant', false, clip.frames.length);
    const quantizer = learnPalette(clip);
    encoder.quantizer = quantizer;
    encoder.colorTab = quantizer.getColormap();
    encoder.reuseTab = true;
    encoder.setRepeat(0);
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
  png(clip: Clip): Promise<Buffer> {
    const first = clip.frames[0];
    if (!first) throw new Error('clip has no frames');
    return sharp(first, { raw: { width: clip.width, height: clip.height, channels: 4 } }).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
  }
}
