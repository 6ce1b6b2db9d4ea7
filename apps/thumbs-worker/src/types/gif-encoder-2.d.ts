declare module 'gif-encoder-2' {
  import { EventEmitter } from 'node:events';

  /** Where the encoder writes its bytes (the library's own is a JS array of numbers). */
  export interface GifByteSink {
    writeByte(value: number): void;
    /** Bytes `offset` up to (not including) `end`; the library passes `end || array.length`. */
    writeBytes(array: ArrayLike<number>, offset?: number, end?: number): void;
    writeUTFBytes(text: string): void;
    getData(): Buffer;
  }

  /**
   * JavaScript GIF89a encoder (NeuQuant or Octree quantisation); the package ships no types.
   * Only what the worker uses is declared, including the 1.0.5 internals its subclass relies on
   * (`src/repositories/indexed-gif-encoder.repository.ts`; the version is pinned exactly in package.json).
   */
  export default class GIFEncoder extends EventEmitter {
    constructor(
      width: number,
      height: number,
      algorithm?: 'neuquant' | 'octree',
      useOptimizer?: boolean,
      totalFrames?: number,
    );
    readonly width: number;
    readonly height: number;
    out: GifByteSink;
    /** What `addFrame` was given, for `analyzePixels` to read. */
    protected image: unknown;
    /** Set by `analyzePixels`: one palette index per pixel, `colorTab` (RGB triplets), its bits, the GCE's transparent index. */
    protected indexedPixels: Uint8Array | null;
    protected colorTab: ArrayLike<number> | null;
    protected colorDepth: number | null;
    protected transIndex: number;
    /** True until the first `addFrame` has written its frame. */
    protected firstFrame: boolean;
    start(): void;
    addFrame(frame: unknown): void;
    setDelay(ms: number): void;
    setDispose(code: number): void;
    setRepeat(repeat: number): void;
    setTransparent(color: number | null): void;
    finish(): void;
    protected analyzePixels(): void;
    protected writeImageDesc(): void;
    protected writePalette(): void;
    protected writeShort(value: number): void;
  }
}
