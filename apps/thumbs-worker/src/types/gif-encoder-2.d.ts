declare module 'gif-encoder-2' {
  import { EventEmitter } from 'node:events';

  /** JavaScript GIF89a encoder (NeuQuant or Octree quantisation); the package ships no types. */
  export default class GIFEncoder extends EventEmitter {
    constructor(width: number, height: number, algorithm?: 'neuquant' | 'octree', useOptimizer?: boolean, totalFrames?: number);
    readonly out: { getData(): Buffer };
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
