import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { effectivePort, firstRefusedAddress, isIpAddressLiteral, type MediaHost } from '@pawlink/address-safety';
import { CallbackRefusedError } from '../domain/callback.errors.js';

export interface CallbackSenderOptions {
  /** `host:port` entries that may be at private addresses (THUMBS_CALLBACK_PRIVATE_HOSTS). */
  privateHosts: readonly MediaHost[];
  /** Connect, send and the answer's head, in all. */
  timeoutMs: number;
  userAgent: string;
}

type Pinned = Array<{ address: string; family: 4 | 6 }>;

/**
 * POSTs a callback. The host is resolved here and every address checked (public unless its
 * `host:port` is one of the private hosts) right before connecting, and the connection goes to the
 * checked addresses only: a name that resolves elsewhere a moment later (DNS rebinding) changes
 * nothing. Redirects are not followed: a 3xx is an answer like any other that is not a 2xx.
 */
export class CallbackSenderRepository {
  constructor(private readonly options: CallbackSenderOptions) {}

  /** The HTTP status the receiver answered; rejects when there was no answer in time or the address is refused. */
  async post(callbackURL: string, body: string, headers: Record<string, string>): Promise<number> {
    const url = new URL(callbackURL);
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const pinned = await this.resolve(url);
    signal.throwIfAborted();
    return this.send(url, pinned, body, headers, signal);
  }

  private async resolve(url: URL): Promise<Pinned> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const addresses = isIpAddressLiteral(host)
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await dnsLookup(host, { all: true, verbatim: true });
    if (addresses.length === 0) throw new Error(`${host} has no address`);
    const refused = firstRefusedAddress(url, addresses, this.options.privateHosts);
    if (refused !== undefined) throw new CallbackRefusedError(`${host} resolves to ${refused}, not a public address`);
    return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  }

  private send(
    url: URL,
    pinned: Pinned,
    body: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<number> {
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, pinned);
      else callback(null, pinned[0]!.address, pinned[0]!.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: {
            ...headers,
            'User-Agent': this.options.userAgent,
            'Content-Length': String(Buffer.byteLength(body)),
          },
          port: effectivePort(url),
          lookup,
          // A pooled socket could be one connected before this attempt's checks.
          agent: false,
          signal,
        },
        (response) => {
          // The answer's body says nothing the status does not; it is read away, not kept.
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }
}
