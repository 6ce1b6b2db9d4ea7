import { hasPlainQuery, requestIdOf } from '@pawlink/service-kit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress } from '../http/client-address.http.js';
import { RULED_CACHE_CONTROL, sendRedirect } from '../http/send-redirect.http.js';
import { isRuled, type RedirectShortUrlService, type RuledLink } from '../services/redirect-short-url.service.js';
import { isCountedVisit } from '../domain/visitor.rules.js';

/** Called after each redirect answered here, for the metrics Express would have recorded. */
export type FastRedirectObserver = (method: string, seconds: number) => void;

export interface FastLaneDeps {
  redirects: Pick<RedirectShortUrlService, 'peek' | 'countVisit' | 'decide'>;
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
  /** A link with rules held in memory: the rules decide (the address read for them), the rule is counted. */
  function ruledRedirect(
    req: IncomingMessage,
    res: ServerResponse,
    code: string,
    link: RuledLink,
    rawQuery: string,
    start: number,
  ): boolean {
    const headers = req.headers;
    const userAgent = headers['user-agent'];
    const address = clientAddress(req, trustProxy);
    const target = redirects.decide(link, {
      userAgent,
      address,
      acceptLanguage: headers['accept-language'],
      rawQuery,
    });
    if (countVisits && isCountedVisit(req.method, userAgent))
      redirects.countVisit(code, headers.referer, userAgent, breakdown ? address : undefined, target.rule);
    sendRedirect(res, target.url, RULED_CACHE_CONTROL, requestIdOf(req));
    onRedirect(req.method ?? 'GET', (performance.now() - start) / 1e3);
    return true;
  }

  return function tryFastRedirect(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    // A number of milliseconds: process.hrtime.bigint() made two BigInts a request.
    const start = performance.now();
    const raw = req.url ?? '';
    if (raw.charCodeAt(0) !== 47 /* '/' */) return false;
    const query = raw.indexOf('?');
    // A bracketed or repeated parameter is Express's to refuse (400 1057), as on every route.
    if (query !== -1 && !hasPlainQuery(raw)) return false;
    const code = query === -1 ? raw.slice(1) : raw.slice(1, query);
    const peek = redirects.peek(code);
    if (typeof peek !== 'string') {
      if (!isRuled(peek)) return false;
      return ruledRedirect(req, res, code, peek, query === -1 ? '' : raw.slice(query + 1), start);
    }
    const headers = req.headers;
    const userAgent = headers['user-agent'];
    if (countVisits && isCountedVisit(method, userAgent))
      redirects.countVisit(code, headers.referer, userAgent, breakdown ? clientAddress(req, trustProxy) : undefined);
    sendRedirect(res, peek, cacheControl, requestIdOf(req));
    onRedirect(method, (performance.now() - start) / 1e3);
    return true;
  };
}
