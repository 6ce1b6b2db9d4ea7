import ipaddr from 'ipaddr.js';

/**
 * ipaddr.js ranges that count as public: the only addresses Pawlink redirects to or fetches from.
 * Every other range (private, loopback, link-local, CGNAT, multicast, reserved, IPv4-mapped,
 * NAT64, 6to4, Teredo, …) is refused.
 */
export const PUBLIC_IP_RANGES: ReadonlySet<string> = new Set(['unicast']);

function isPublicParsed(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv6') {
    // IPv4-compatible (::a.b.c.d, deprecated) is "unicast" to ipaddr.js; judge the IPv4 inside.
    const parts = (address as ipaddr.IPv6).parts;
    if (parts.slice(0, 6).every((part) => part === 0)) {
      return isPublicParsed(
        ipaddr.IPv4.parse(`${parts[6]! >> 8}.${parts[6]! & 0xff}.${parts[7]! >> 8}.${parts[7]! & 0xff}`),
      );
    }
  }
  return PUBLIC_IP_RANGES.has(address.range());
}

/*
 * ipaddr.js's `isValid` answers "no" by catching an Error its constructor throws, and capturing that
 * Error's stack costs several microseconds: a host name (most of what is asked) is told apart first,
 * by the shapes these literals must have (four decimal parts; a colon in every IPv6 spelling).
 */
const FOUR_PART_DECIMAL = /^(?:0|[1-9]\d*)(?:\.(?:0|[1-9]\d*)){3}$/;

const isFourPartDecimal = (text: string): boolean =>
  FOUR_PART_DECIMAL.test(text) && ipaddr.IPv4.isValidFourPartDecimal(text);
const isIpv6 = (text: string): boolean => text.includes(':') && ipaddr.IPv6.isValid(text);

/**
 * Whether `address` — a dotted-quad IPv4 address or an IPv6 address without brackets, as DNS
 * answers and URL parsers give them — is a public unicast address. Anything else (another
 * spelling, a host name, garbage) is not, so a caller that asks "may I connect?" fails safe.
 */
export function isPublicIpAddress(address: string): boolean {
  if (isFourPartDecimal(address)) return isPublicParsed(ipaddr.IPv4.parse(address));
  if (isIpv6(address)) return isPublicParsed(ipaddr.IPv6.parse(address));
  return false;
}

/** Whether `text` is an IP address in either form `isPublicIpAddress` judges (not a host name). */
export function isIpAddressLiteral(text: string): boolean {
  return isFourPartDecimal(text) || isIpv6(text);
}
