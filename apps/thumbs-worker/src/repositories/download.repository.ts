import { createHash } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { createWriteStream } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  effectivePort,
  firstRefusedAddress,
  isAllowedMediaUrl,
  isIpAddressLiteral,
  REDIRECT_STATUSES,
  type MediaHost,
} from '@pawlink/address-safety';
import { RetryableJobError, UnsupportedMediaError } from '../domain/thumbnail.errors.js';

export interface DownloadOptions {
  /** Sent on every download (BOARD_USER_AGENT). */
  userAgent: string;
  maxBytes: number;
  timeoutMs: number;
  /** The only hosts a download (and each of its redirects) may go to. */
  allowedHosts: readonly MediaHost[];
  /** Those of them that may be at loopback, private, link-local or reserved addresses (a local board, tests). */
  privateHosts: readonly MediaHost[];
  /** Redirects followed, each checked like the first URL. */
  maxRedirects: number;
}

export interface Downloaded {
  bytes: number;
  /** Lower-case hex MD5 of what was written. */
  md5: string;
}

/**
 * The checked addresses a connection is pinned to, so DNS cannot answer differently between the
 * check and the connect; all of them, so Node can still try the other family (happy eyeballs).
 */
type Pinned = Array<{ address: string; family: 4 | 6 }>;

/** The request for `url`, refused for good, with the detail for the logs. */
const refused = (url: string, why: string): UnsupportedMediaError =>
  new UnsupportedMediaError(`download of ${url} refused: ${why}`, { failure: 'download' });

/**
 * Board files streamed to disk, from the board's own hosts only. Every hop (the first URL and
 * each redirect, followed by hand up to a bound) must be http(s) on an allowed host, and its name
 * is resolved here and every address checked (public unless the host is one of the private
 * hosts) before anything connects; the connection then goes to the checked address. A refused URL, a missing file (404, 410) and a file over the size cap
 * are unrecoverable; network errors, timeouts and other HTTP failures are retried by the queue.
 * Error messages carry the details (URL, status) for the worker's log; clients see only the
 * failure class's fixed reason.
 */
export class DownloadRepository {
  constructor(private readonly options: DownloadOptions) {}

  /**
   * Streams `url` into `file` without holding it in memory, refusing anything over `maxBytes`
   * (by Content-Length up front, and by counting while streaming, since the header may lie).
   * `signal` aborts the download when the job is cancelled or times out.
   */
  async download(url: string, file: string, signal?: AbortSignal): Promise<Downloaded> {
    const { maxBytes, timeoutMs } = this.options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
    const failure = (error: unknown): Error => {
      if (signal?.aborted) return signal.reason as Error;
      if (error instanceof UnsupportedMediaError || error instanceof RetryableJobError) return error;
      return new RetryableJobError(
        'download',
        `download of ${url} failed: ${timeout.aborted ? `timed out after ${timeoutMs} ms` : (error as Error).message}`,
        { cause: error },
      );
    };
    let response: IncomingMessage;
    let from: URL;
    try {
      ({ response, url: from } = await this.open(url, combined));
    } catch (error) {
      throw failure(error);
    }
    const status = response.statusCode ?? 0;
    if (status === 404 || status === 410) {
      response.destroy();
      throw new UnsupportedMediaError(`the board has no file at ${from.href} (HTTP ${status})`, {
        failure: 'download',
      });
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new RetryableJobError('download', `download of ${from.href} failed: HTTP ${status}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      throw new UnsupportedMediaError(`file at ${from.href} is ${declared} bytes, over the ${maxBytes} byte limit`, {
        failure: 'tooLarge',
      });
    }
    const hash = createHash('md5');
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          callback(
            new UnsupportedMediaError(`file at ${from.href} is over the ${maxBytes} byte limit`, {
              failure: 'tooLarge',
            }),
          );
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(response, meter, createWriteStream(file), { signal: combined });
    } catch (error) {
      throw failure(error);
    }
    return { bytes, md5: hash.digest('hex') };
  }

  /** The first response that is not a redirect, after checking every hop; the URL it came from. */
  private async open(first: string, signal: AbortSignal): Promise<{ response: IncomingMessage; url: URL }> {
    let current: URL;
    try {
      current = new URL(first);
    } catch {
      throw refused(first, 'not a URL');
    }
    for (let redirects = 0; ; redirects++) {
      if (!isAllowedMediaUrl(current, this.options.allowedHosts))
        throw refused(current.href, "not one of the board's media hosts");
      const pinned = await this.resolve(current, signal);
      const response = await this.get(current, pinned, signal);
      const status = response.statusCode ?? 0;
      if (!REDIRECT_STATUSES.has(status)) return { response, url: current };
      response.destroy();
      const location = response.headers.location;
      if (redirects >= this.options.maxRedirects)
        throw refused(first, `more than ${this.options.maxRedirects} redirect(s)`);
      if (!location) throw refused(current.href, `HTTP ${status} without a Location`);
      try {
        current = new URL(location, current);
      } catch {
        throw refused(current.href, `redirect to an unreadable Location "${location.slice(0, 200)}"`);
      }
    }
  }

  /**
   * The addresses to connect to for `url`: its IP literal, or what its name resolves to. Unless
   * the host is one of the private hosts, every one of them must be public, so a mixed answer
   * cannot slip a private address through.
   */
  private async resolve(url: URL, signal: AbortSignal): Promise<Pinned> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const addresses = isIpAddressLiteral(host)
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await dnsLookup(host, { all: true, verbatim: true }).catch((error: unknown) => {
          throw new RetryableJobError(
            'download',
            `download of ${url.href} failed: ${host} could not be resolved: ${(error as Error).message}`,
            { cause: error },
          );
        });
    signal.throwIfAborted();
    if (addresses.length === 0)
      throw new RetryableJobError('download', `download of ${url.href} failed: ${host} has no address`);
    const blocked = firstRefusedAddress(url, addresses, this.options.privateHosts);
    if (blocked) throw refused(url.href, `${host} resolves to ${blocked}, not a public address`);
    return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  }

  /** One GET to the pinned address (fresh connection, no redirects followed), resolved with its response head. */
  private get(url: URL, pinned: Pinned, signal: AbortSignal): Promise<IncomingMessage> {
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, pinned);
      else callback(null, pinned[0]!.address, pinned[0]!.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.get(
        url,
        {
          headers: { 'User-Agent': this.options.userAgent },
          port: effectivePort(url),
          lookup,
          // A pooled socket could be one connected before this hop's checks.
          agent: false,
          signal,
        },
        resolve,
      );
      request.on('error', reject);
    });
  }
}
