import { validated, type ApiError } from '@pawlink/service-kit';
import type { RequestHandler, Response } from 'express';
import type { ShortUrlService } from '../services/short-url.service.js';
import type { PublicCodeInput } from '../validation/short-url.validation.js';
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

/** GET /:code when the fast path missed: resolve through Redis/MySQL (which warms the caches). */
export function redirectHandler(shortUrls: ShortUrlService, cacheControl: string): RequestHandler {
  return async (req, res) => {
    const { code } = validated<PublicCodeInput>(req);
    const url = code === null ? null : await shortUrls.resolve(code);
    if (url === null) {
      sendUnknownCode(res);
      return;
    }
    sendRedirect(res, url, cacheControl);
  };
}
