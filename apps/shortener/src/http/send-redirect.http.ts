import type { ServerResponse } from 'node:http';

export const REDIRECT_STATUS = 302;

/**
 * The one way a redirect is written, by the fast path and by Express alike: 302, a short private
 * cache lifetime so edits reach browsers soon, and no indexing of short links. The fast path hands
 * over its `requestId` to go with the other headers: a header set before `writeHead` makes node
 * merge the two sets, header by header (Express has set its own by then).
 */
export function sendRedirect(res: ServerResponse, location: string, cacheControl: string, requestId?: string): void {
  res.writeHead(
    REDIRECT_STATUS,
    requestId === undefined
      ? { Location: location, 'Cache-Control': cacheControl, 'X-Robots-Tag': 'noindex', 'Content-Length': '0' }
      : {
          Location: location,
          'Cache-Control': cacheControl,
          'X-Robots-Tag': 'noindex',
          'Content-Length': '0',
          'X-Request-Id': requestId,
        },
  );
  res.end();
}

export const redirectCacheControl = (maxAgeSeconds: number): string =>
  maxAgeSeconds > 0 ? `private, max-age=${maxAgeSeconds}` : 'private, no-cache';

/** What a link with rules answers: the browser must ask again at every visit (see decidedCacheControl). */
export const RULED_CACHE_CONTROL = 'private, no-cache';

/**
 * What a redirect that a decision made may be kept for (docs/adr/0022): reached through a password,
 * never stored (`no-store`: the next visit asks again, and a password added by PATCH applies at
 * once); chosen by rules, revalidated at every visit (`private, no-cache`: the request's facts,
 * the clock and the next edit may each change the answer); otherwise the configured lifetime of
 * plain links.
 */
export const decidedCacheControl = (decidedBy: 'password' | 'rules' | undefined, plain: string): string =>
  decidedBy === 'password' ? 'no-store' : decidedBy === 'rules' ? RULED_CACHE_CONTROL : plain;
