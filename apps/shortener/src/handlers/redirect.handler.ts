import { validated, type ApiError } from '@pawlink/service-kit';
import type { RequestHandler, Response } from 'express';
import type { ExpiredLink, ShortUrlService } from '../services/short-url.service.js';
import { isCountedVisit } from '../services/visitor.rules.js';
import type { PublicCodeInput } from '../validation/short-url.validation.js';
import { PREVIEW_HEADERS, renderExpiredPage } from '../views/preview.page.js';
import { limitedText } from './lookup-limit.js';
import { sendRedirect } from './send-redirect.js';

export const UNKNOWN_CODE_TEXT = 'Unknown short url code.';

const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-cache', 'X-Robots-Tag': 'noindex' };

/** The redirect's 404: plain text, for the browser that followed the link. */
export function sendUnknownCode(res: Response): void {
  res.status(404).set(TEXT_HEADERS).send(UNKNOWN_CODE_TEXT);
}

/** The redirect's 429 (lookup limit): plain text like its 404, with the rate-limit headers. */
export function sendRedirectLimited(res: Response, error: ApiError): void {
  res.status(error.httpStatus).set(error.headers).set(TEXT_HEADERS).send(limitedText(error));
}

/** An expired link's 410: an HTML page under the preview's CSP, for the browser that followed the link. */
export function sendExpired(res: Response, expired: ExpiredLink): void {
  res.set(PREVIEW_HEADERS).status(410).send(renderExpiredPage(expired));
}

/**
 * GET /:code when the fast path missed: resolve through Redis/MySQL (which warms the caches). A
 * GET by a non-bot is a counted visit; a `maxVisits` link admits it or answers 410.
 */
export function redirectHandler(shortUrls: ShortUrlService, cacheControl: string): RequestHandler {
  return async (req, res) => {
    const { code } = validated<PublicCodeInput>(req);
    const outcome = code === null ? ({ kind: 'unknown' } as const) : await shortUrls.visit(code, isCountedVisit(req.method, req.get('user-agent')));
    if (outcome.kind === 'unknown') sendUnknownCode(res);
    else if (outcome.kind === 'expired') sendExpired(res, outcome.expired);
    else sendRedirect(res, outcome.url, cacheControl);
  };
}
