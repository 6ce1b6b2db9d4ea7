import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { sendExpired, sendUnknownCode } from '../http/public-answers.http.js';
import { peekOnce } from '../http/redirect-peek.http.js';
import { sendRedirect } from '../http/send-redirect.http.js';
import type { RedirectShortUrlService } from '../services/redirect-short-url.service.js';
import { isCountedVisit } from '../services/visitor.rules.js';
import type { RedirectShortUrlInput } from '../validation/redirect-short-url.validation.js';

/**
 * GET /:code when the fast lane did not answer: from the request's one peek, resolved through
 * Redis/MySQL (which warms the caches). A GET by a non-bot is a counted visit; a `maxVisits` link
 * admits it or answers 410.
 */
export function redirectShortUrlHandler(redirects: RedirectShortUrlService, cacheControl: string): RequestHandler {
  return async (req, res) => {
    const { code } = validated<RedirectShortUrlInput>(req);
    const userAgent = req.get('user-agent');
    const source = { referer: req.get('referer'), userAgent, address: req.ip };
    const outcome =
      code === null
        ? ({ kind: 'unknown' } as const)
        : await redirects.visit(code, peekOnce(redirects, req, code), isCountedVisit(req.method, userAgent), source);
    if (outcome.kind === 'unknown') sendUnknownCode(res);
    else if (outcome.kind === 'expired') sendExpired(res, outcome.expired);
    else sendRedirect(res, outcome.url, cacheControl);
  };
}
