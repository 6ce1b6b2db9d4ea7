import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { UnsupportedMediaError } from './media.errors.js';

export interface DownloadOptions {
  userAgent: string;
  maxBytes: number;
  timeoutMs: number;
  /** Aborts the download when the job is cancelled or times out. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export interface Downloaded {
  bytes: number;
  md5: string;
}

/**
 * Streams `url` into `file` without holding it in memory, refusing anything over `maxBytes`
 * (by Content-Length up front, and by counting while streaming, since the header may lie).
 */
export async function downloadToFile(url: string, file: string, options: DownloadOptions): Promise<Downloaded> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers: { 'User-Agent': options.userAgent }, signal, redirect: 'follow' });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new Error(`download of ${url} failed: ${timeout.aborted ? `timed out after ${options.timeoutMs} ms` : (error as Error).message}`, { cause: error });
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
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body.cancel();
    throw new UnsupportedMediaError(`file is ${declared} bytes, over the ${options.maxBytes} byte limit`);
  }
  const hash = createHash('md5');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > options.maxBytes) {
        callback(new UnsupportedMediaError(`file is over the ${options.maxBytes} byte limit`));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), meter, createWriteStream(file), { signal });
  } catch (error) {
    if (error instanceof UnsupportedMediaError) throw error;
    if (options.signal?.aborted) throw options.signal.reason;
    throw new Error(`download of ${url} failed: ${timeout.aborted ? `timed out after ${options.timeoutMs} ms` : (error as Error).message}`, { cause: error });
  }
  return { bytes, md5: hash.digest('hex') };
}
