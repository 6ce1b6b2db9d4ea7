import type { RequestHandler, Response } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';
import { sendRedirect } from './send-redirect.js';

export const UNKNOWN_CODE_TEXT = 'Unknown short url code.';

/** The redirect's 404: plain text, for the browser that followed the link. */
export function sendUnknownCode(res: Response): void {
  res.status(404).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-cache', 'X-Robots-Tag': 'noindex' }).send(UNKNOWN_CODE_TEXT);
}

/** GET /:code when the fast path missed: resolve through Redis/MySQL (which warms the caches). */
export function redirectHandler(service: ShortUrlService, cacheControl: string): RequestHandler<{ code: string }> {
  return async (req, res) => {
    const url = await service.resolve(req.params.code);
    if (url === null) {
      sendUnknownCode(res);
      return;
    }
    sendRedirect(res, url, cacheControl);
  };
}
