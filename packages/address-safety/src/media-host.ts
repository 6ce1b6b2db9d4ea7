import { isPublicIpAddress } from './public-address.js';

/**
 * A host Pawlink connects out to: where the worker may download board files from (the board's own
 * hosts, never whatever a post's `file.url` or a redirect names), or a callback receiver allowed
 * at a private address (THUMBS_CALLBACK_PRIVATE_HOSTS). A host is a name or address and a port; without a port it
 * stands for the default ports of http and https (80, 443). IPv6 addresses are written in brackets.
 */
export interface MediaHost {
  /** As the WHATWG URL parser spells it: lower case, punycode, IPv4 dotted, IPv6 in brackets. */
  hostname: string;
  /** null: 80 or 443. */
  port: number | null;
}

const EXPLICIT_PORT = /^(?:\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/;

/** `host` or `host:port` (IPv6: `[addr]` or `[addr]:port`), normalised; null when it is anything else. */
export function parseMediaHost(entry: string): MediaHost | null {
  const text = entry.trim();
  if (text === '' || /[/\\?#@\s]/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    return null;
  }
  if (url.hostname === '') return null;
  const explicit = EXPLICIT_PORT.exec(text);
  const port = explicit ? Number(explicit[1]) : null;
  if (port !== null && (port < 1 || port > 65_535)) return null;
  return { hostname: url.hostname, port };
}

/** The hosts of the given base URLs (BOARD_STATIC_URL, BOARD_URL), without repeats. */
export function mediaHostsOf(baseUrls: readonly string[]): MediaHost[] {
  const hosts: MediaHost[] = [];
  for (const baseUrl of baseUrls) {
    const host = parseMediaHost(new URL(baseUrl).host);
    if (host && !hosts.some((known) => known.hostname === host.hostname && known.port === host.port)) hosts.push(host);
  }
  return hosts;
}

/** The port a URL connects to. */
export const effectivePort = (url: URL): number =>
  url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

/** Whether the worker may fetch `url`: http(s), no credentials, on one of `hosts`. */
export function isAllowedMediaUrl(url: URL, hosts: readonly MediaHost[]): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  const port = effectivePort(url);
  return hosts.some(
    (host) => host.hostname === url.hostname && (host.port === null ? port === 80 || port === 443 : host.port === port),
  );
}

/** HTTP statuses whose Location the worker follows, hop by hop, checking each. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * The address among `addresses` (what `url`'s host resolved to) that Pawlink must not connect to,
 * or undefined when it may connect to all of them. Every one must be public, so a mixed answer
 * cannot slip a private address through, unless the URL's `host:port` is one of `privateHosts`
 * (a board or a callback receiver on the local network, tests).
 */
export function firstRefusedAddress(
  url: URL,
  addresses: ReadonlyArray<{ address: string }>,
  privateHosts: readonly MediaHost[],
): string | undefined {
  if (isAllowedMediaUrl(url, privateHosts)) return undefined;
  return addresses.find((entry) => !isPublicIpAddress(entry.address))?.address;
}
