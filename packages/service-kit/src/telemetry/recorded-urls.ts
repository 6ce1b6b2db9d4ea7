import type { RequestOptions } from 'node:http';

/**
 * The query parameters whose values a server span does not record: the instrumentation's own list
 * (signed-URL parameters; given here, the option replaces it) and `callbackURL`, a client's own
 * URL, which may carry its token.
 */
export const REDACTED_SERVER_QUERY = [
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'callbackURL',
];

/**
 * An outgoing request's URL without its query or fragment, for its client span's `url.full`: a
 * client's callback URL may carry its token in its query, under any name, so no list of names to
 * redact covers it.
 */
export function outgoingUrlWithoutQuery(options: RequestOptions): string {
  const protocol = options.protocol ?? 'http:';
  const hostname = options.hostname ?? options.host ?? 'localhost';
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  const port = options.port === undefined || options.port === null || options.port === '' ? '' : `:${options.port}`;
  const path = (options.path ?? '/').split(/[?#]/, 1)[0];
  return `${protocol}//${host}${port}${path}`;
}
