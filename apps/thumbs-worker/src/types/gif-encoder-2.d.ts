declare module 'gif-encoder-2' {
  import { EventEmitter } from 'node:events';

  /** The colour quantiser the encoder uses; `lookupRGB` maps a colour to a palette index. */
  export interface GifQuantizer {
    buildColormap(): void;
    getColormap(): number[];
    lookupRGB(r: number, g: number, b: number): number;
  }

  /** JavaScript GIF89a encoder (NeuQuant or Octree quantisation); the package ships no types. */
  export default class GIFEncoder extends EventEmitter {
    constructor(width: number, height: number, algorithm?: 'neuquant' | 'octree', useOptimizer?: boolean, totalFrames?: number);
    readonly out: { getData(): Buffer };
    /**
     * Internals of 1.0.5 used to share one palette across frames: with `reuseTab` set and the
     * optimizer off, every frame is mapped through `quantizer`/`colorTab` instead of learning
     * its own palette.
     */
    quantizer: GifQuantizer | undefined;
    colorTab: number[] | null;
    reuseTab: boolean | null;
    start(): void;
    /** RGBA pixels, width×height×4 bytes. */
    addFrame(pixels: Uint8Array | Uint8ClampedArray): void;
    setDelay(ms: number): void;
    setFrameRate(fps: number): void;
    setQuality(quality: number): void;
    setThreshold(percent: number): void;
    setRepeat(repeat: number): void;
    setPaletteSize(size: number): void;
    setDispose(code: number): void;
    setTransparent(color: number | null): void;
    finish(): void;
  }
}

declare module 'gif-encoder-2/src/TypedNeuQuant.js' {
  import type { GifQuantizer } from 'gif-encoder-2';

  /** NeuQuant over packed RGB pixels; `sampleFactor` 1 (best) to 30 (fastest). */
  const NeuQuant: new (rgbPixels: Uint8Array, sampleFactor: number) => GifQuantizer;
  export default NeuQuant;
}
