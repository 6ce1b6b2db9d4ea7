import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { LimitLookups } from '../guards/lookup-limit.guard.js';
import { redirectShortUrlHandler } from '../handlers/redirect-short-url.handler.js';
import { sendRedirectLimited } from '../http/public-answers.http.js';
import { peekOnce } from '../http/redirect-peek.http.js';
import { needsLookup, type RedirectShortUrlService } from '../services/redirect-short-url.service.js';
import { redirectShortUrlValidation } from '../validation/redirect-short-url.validation.js';

/** The redirect route's pattern, which is also its `route` label in the HTTP metrics, fast lane included. */
export const REDIRECT_ROUTE = '/:code';

export interface RedirectShortUrlRouteDeps {
  redirectShortUrl: RedirectShortUrlService;
  /** The per-IP `shortener.lookup` limit, shared with the preview. */
  limitLookups: LimitLookups;
  /** `Cache-Control` of redirects. */
  redirectCacheControl: string;
}

/**
 * GET /:code (docs/api.md) when the fast lane did not answer (createRequestHandler puts that lane
 * before Express), public: the lookup limit (only when the request's peek leaves the answer to
 * Redis or MySQL) → validation → handler.
 */
export function registerRedirectShortUrlRoute(
  app: Express,
  { redirectShortUrl, limitLookups, redirectCacheControl }: RedirectShortUrlRouteDeps,
): void {
  app.get(
    REDIRECT_ROUTE,
    limitLookups((req, code) => needsLookup(peekOnce(redirectShortUrl, req, code)), sendRedirectLimited),
    validate(...redirectShortUrlValidation),
    redirectShortUrlHandler(redirectShortUrl, redirectCacheControl),
  );
}
