import { empty, header, media } from '@pawlink/contracts/openapi';
import { inPath } from '@pawlink/service-kit';
import {
  expiredPage,
  lookupLimited,
  passwordFormPage,
  sendExpired,
  sendPasswordForm,
  sendRedirectLimited,
  sendUnknownCode,
} from '../http/public-answers.http.js';
import { decidedCacheControl, redirectCacheControl, sendRedirect } from '../http/send-redirect.http.js';
import { isCountedVisit } from '../domain/visitor.rules.js';
import { needsLookup } from '../services/redirect-short-url.service.js';
import { publicCode } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/** The redirect route's pattern, which is also its `route` label in the HTTP metrics, fast lane included. */
export const REDIRECT_ROUTE = '/:code';

/**
 * GET /:code when the fast lane did not answer (createRequestHandler puts that lane before
 * Express), public. The request's one peek of memory is made here and handed, as an argument, to
 * the lookup limit (counted only when the peek leaves the answer to Redis or MySQL) and to the
 * visit, which resolves it through Redis/MySQL (warming the caches). A GET by a non-bot is a
 * counted visit; a `maxVisits` link admits it or answers 410.
 */
export const redirectShortUrlEndpoint = shortenerEndpoint({
  operationId: 'followShortUrl',
  summary: 'Follow a short URL',
  description:
    'Answered before the Express stack when the code is warm in the instance (no Redis or MySQL). Misses count against the lookup limit. ' +
    '`/metrics` is never a code: it is not on the public URL and answers 404 1024 (JSON).',
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: REDIRECT_ROUTE,
  guards: [],
  fields: { code: inPath(publicCode()) },
  responses: {
    302: empty(
      'To the target URL. `Cache-Control: private, max-age=<SHORTENER_REDIRECT_MAX_AGE>` for a plain link (docs/adr/0022).',
      { Location: header('Location', true), 'Cache-Control': header('Cache-Control', true) },
    ),
    200: passwordFormPage(
      'A password-protected link: the password form (posting `password` to `POST /{code}`), never the target; `Cache-Control: no-store`, `X-Robots-Tag: noindex`.',
    ),
    404: media('"Unknown short url code." (plain text).', ['text/plain']),
    410: expiredPage(),
    429: lookupLimited('text/plain'),
  },
  errors: ['UNKNOWN_ROUTE'],
  handler: ({ services, limitLookups, config }) => {
    const redirects = services.redirectShortUrl;
    const cacheControl = redirectCacheControl(config.shortener.redirectMaxAgeSeconds);
    return async ({ input: { code }, req, res }) => {
      const peek = code === null ? null : redirects.peek(code);
      if (needsLookup(peek)) {
        const limited = await limitLookups.count(req, res);
        if (limited) return sendRedirectLimited(res, limited);
      }
      const userAgent = req.get('user-agent');
      const query = req.url.indexOf('?');
      const source = {
        referer: req.get('referer'),
        userAgent,
        address: req.ip,
        acceptLanguage: req.get('accept-language'),
        rawQuery: query === -1 ? '' : req.url.slice(query + 1),
      };
      const outcome =
        code === null
          ? ({ kind: 'unknown' } as const)
          : await redirects.visit(code, peek, isCountedVisit(req.method, userAgent), source);
      if (outcome.kind === 'unknown') sendUnknownCode(res);
      else if (outcome.kind === 'expired') sendExpired(res, outcome.expired);
      else if (outcome.kind === 'password') sendPasswordForm(res, outcome.fullURL);
      else sendRedirect(res, outcome.url, decidedCacheControl(outcome.decidedBy, cacheControl));
    };
  },
});
