import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { UnsupportedMediaError } from '../services/thumbnail.errors.js';

export interface DownloadOptions {
  /** Sent on every download (BOARD_USER_AGENT). */
  userAgent: string;
  maxBytes: number;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface Downloaded {
  bytes: number;
  /** Lower-case hex MD5 of what was written. */
  md5: string;
}

/**
 * Board files streamed to disk. A missing file (404, 410) and a file over the size cap are
 * unrecoverable; network errors, timeouts and other HTTP failures are ordinary errors, which the
 * queue retries.
 */
export class DownloadRepository {
  constructor(private readonly options: DownloadOptions) {}

  /**
   * Streams `url` into `file` without holding it in memory, refusing anything over `maxBytes`
   * (by Content-Length up front, and by counting while streaming, since the header may lie).
   * `signal` aborts the download when the job is cancelled or times out.
   */
  async download(url: string, file: string, signal?: AbortSignal): Promise<Downloaded> {
    const { userAgent, maxBytes, timeoutMs } = this.options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
    const failure = (error: unknown): Error =>
      new Error(`download of ${url} failed: ${timeout.aborted ? `timed out after ${timeoutMs} ms` : (error as Error).message}`, { cause: error });
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, { headers: { 'User-Agent': userAgent }, signal: combined, redirect: 'follow' });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw failure(error);
    }
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      throw new UnsupportedMediaError(`the board has no file at ${url} (HTTP ${response.status})`);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Error(`download of ${url} failed: HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body.cancel();
      throw new UnsupportedMediaError(`file is ${declared} bytes, over the ${maxBytes} byte limit`);
    }
    const hash = createHash('md5');
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          callback(new UnsupportedMediaError(`file is over the ${maxBytes} byte limit`));
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), meter, createWriteStream(file), { signal: combined });
    } catch (error) {
      if (error instanceof UnsupportedMediaError) throw error;
      if (signal?.aborted) throw signal.reason;
      throw failure(error);
    }
    return { bytes, md5: hash.digest('hex') };
  }
}
