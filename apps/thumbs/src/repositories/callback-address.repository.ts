import { lookup } from 'node:dns/promises';
import { firstRefusedAddress, isIpAddressLiteral, type MediaHost } from '@pawlink/address-safety';

/**
 * Whether a callback URL's host may be called, as the worker will check it again at each
 * delivery: its IP literal or every address its name resolves to must be public, unless its
 * `host:port` is one of THUMBS_CALLBACK_PRIVATE_HOSTS.
 */
export class CallbackAddressRepository {
  constructor(private readonly privateHosts: readonly MediaHost[]) {}

  /** Why `url` may not be called (a sentence for the 1085 answer), or undefined when it may. */
  async refusal(url: URL): Promise<string | undefined> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    let addresses: Array<{ address: string }>;
    try {
      addresses = isIpAddressLiteral(host) ? [{ address: host }] : await lookup(host, { all: true, verbatim: true });
    } catch {
      return `The callbackURL's host ${host} could not be resolved.`;
    }
    if (addresses.length === 0) return `The callbackURL's host ${host} has no address.`;
    const refused = firstRefusedAddress(url, addresses, this.privateHosts);
    return refused === undefined ? undefined : `The callbackURL's host ${host} is at ${refused}, not a public address.`;
  }
}
