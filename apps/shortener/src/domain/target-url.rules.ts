import { isIpAddressLiteral, isPublicIpAddress } from '@pawlink/address-safety';
import { URL_MAX_LENGTH } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import { domainToASCII } from 'node:url';
import { ALLOWED_PROTOCOLS, BLOCKED_HOST_NAMES } from './shortener.policy.js';

/** Control characters, any Unicode whitespace, and the bidi/invisible formatting marks. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{White_Space}\p{Zl}\p{Zp}]/u;
const ABSOLUTE = /^(?:https?|ftp):\/\//i;

/** 1073 with the reason, as every check of a target URL reports it. */
export const invalidUrl = (reason: string): ApiError =>
  new ApiError('INVALID_URL', { message: `The provided url is invalid: ${reason}.` });

function isBlockedName(host: string): boolean {
  // A single label (`intranet`, `router`) is resolved through local search domains.
  if (!host.includes('.')) return true;
  return BLOCKED_HOST_NAMES.some((name) => host === name || host.endsWith(`.${name}`));
}

/** 1073 for a host that is a loopback, private or reserved address, or a local name. */
function refuseLocalHost(hostname: string): void {
  let host = hostname;
  if (host.startsWith('[') && host.endsWith(']')) {
    if (!isPublicIpAddress(host.slice(1, -1)))
      throw invalidUrl('private, loopback and reserved addresses are not allowed');
    return;
  }
  host = domainToASCII(host);
  // One trailing dot is the fully qualified spelling of the same name. Empty labels anywhere else
  // (`localhost..`, `127.0.0.1..`) make no DNS name, and hide the name or address from the checks below.
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '') throw invalidUrl('the host is missing');
  if (host.split('.').includes('')) throw invalidUrl('the host name has an empty label');
  if (isIpAddressLiteral(host)) {
    if (!isPublicIpAddress(host)) throw invalidUrl('private, loopback and reserved addresses are not allowed');
  } else if (isBlockedName(host)) {
    throw invalidUrl('local host names are not allowed');
  }
}

/**
 * An operator's prefix of SHORTENER_PRIVATE_TARGET_PREFIXES in the form targets are compared in:
 * WHATWG-normalised, ending in `/` (so `http://h/images` does not cover `http://h/images-x`).
 * Throws a message for a value that is no http(s) URL, carries credentials, a query or a fragment.
 */
export function normalisePrivateTargetPrefix(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error('must be absolute http(s) URLs');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('must be absolute http(s) URLs');
  if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '' || parsed.hash !== '')
    throw new Error('must have no credentials, query or fragment');
  return parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`;
}

/**
 * Checks a target URL (a non-empty string of at most URL_MAX_LENGTH characters; validation has
 * seen to that) and returns it normalised by the WHATWG parser (punycode host, numeric IPv4
 * spellings resolved to dotted form, ASCII only) — the form that is stored and sent in `Location`.
 * Throws ApiError 1073 for anything we will not redirect to. A URL under one of
 * `privateTargetPrefixes` (normalised by normalisePrivateTargetPrefix: the operator's own media
 * served on a local address, say) skips the host checks; every other rule still applies.
 */
export function normaliseTargetUrl(input: string, privateTargetPrefixes: readonly string[] = []): string {
  // The parser silently strips tabs and newlines; refuse them instead (no header injection).
  if (UNSAFE_CHARACTERS.test(input)) throw invalidUrl('control characters and whitespace are not allowed');
  if (!ABSOLUTE.test(input)) throw invalidUrl('an absolute http, https or ftp url is required');

  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    throw invalidUrl('not a valid url');
  }
  if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) throw invalidUrl('an absolute http, https or ftp url is required');
  if (parsed.username !== '' || parsed.password !== '') throw invalidUrl('credentials are not allowed');

  // The parser has resolved `..`, `%2e%2e` and the host's spelling: a prefix match is a path under it.
  if (!privateTargetPrefixes.some((prefix) => parsed.href.startsWith(prefix))) refuseLocalHost(parsed.hostname);

  const normalised = parsed.href;
  if (normalised.length > URL_MAX_LENGTH) throw invalidUrl(`at most ${URL_MAX_LENGTH} characters`);
  return normalised;
}
