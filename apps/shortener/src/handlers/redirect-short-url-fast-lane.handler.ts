import { assignRequestId, hasPlainQuery } from '@pawlink/service-kit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress } from '../http/client-address.http.js';
import { sendRedirect } from '../http/send-redirect.http.js';
import type { RedirectShortUrlService } from '../services/redirect-short-url.service.js';
import { isCountedVisit } from '../domain/visitor.rules.js';

/** Called after each redirect answered here, for the metrics Express would have recorded. */
export type FastRedirectObserver = (method: string, seconds: number) => void;

export interface FastLaneDeps {
  redirects: Pick<RedirectShortUrlService, 'peek' | 'countVisit'>;
  /** Whether visits are counted (SHORTENER_COUNT_VISITS). */
  countVisits: boolean;
  /** Whether visits are tallied with where they came from (SHORTENER_VISIT_BREAKDOWN): only then is the address read. */
  breakdown: boolean;
  /** TRUST_PROXY: the client address is the one Express's `req.ip` would give. */
  trustProxy: number;
  cacheControl: string;
  onRedirect: FastRedirectObserver;
}

/**
 * Answers `GET|HEAD /<code>` before Express when the redirect service's `peek` finds the answer
 * in memory (docs/adr/0006): no middleware stack, no I/O, one synchronous service call. A counted
 * visit (a GET by a non-bot) is one tally update, through the same service, with the raw
 * `Referer`, `User-Agent` and client address (parsed later, off this path). Returns false (having
 * written nothing) for everything else — other methods and paths, a query of a shape no route takes, misses, `maxVisits` links, links
 * past their `expiresAt`, reserved words — which Express then handles. Nothing is left on the
 * request for Express: its redirect endpoint peeks again (one LRU read) and hands that peek to the
 * lookup limit and the visit as an argument (docs/adr/0016).
 */
export function createRedirectFastLane({
  redirects,
  countVisits,
  breakdown,
  trustProxy,
  cacheControl,
  onRedirect,
}: FastLaneDeps) {
  return function tryFastRedirect(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const start = process.hrtime.bigint();
    const raw = req.url ?? '';
    if (raw.charCodeAt(0) !== 47 /* '/' */) return false;
    const query = raw.indexOf('?');
    // A bracketed or repeated parameter is Express's to refuse (400 1057), as on every route.
    if (query !== -1 && !hasPlainQuery(raw)) return false;
    const code = query === -1 ? raw.slice(1) : raw.slice(1, query);
    const peek = redirects.peek(code);
    if (typeof peek !== 'string') return false;
    const headers = req.headers;
    const userAgent = headers['user-agent'];
    if (countVisits && isCountedVisit(method, userAgent))
      redirects.countVisit(code, headers.referer, userAgent, breakdown ? clientAddress(req, trustProxy) : undefined);
    assignRequestId(req, res);
    sendRedirect(res, peek, cacheControl);
    onRedirect(method, Number(process.hrtime.bigint() - start) / 1e9);
    return true;
  };
}
