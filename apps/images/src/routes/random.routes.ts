import type { ImageBytesHeader, ImageRecord } from '@pawlink/contracts';
import type { Express, Request, Response } from 'express';
import { prefersImage } from '../domain/accept.js';
import { headerValue } from '../domain/header-value.js';
import { imageFilePath } from '../domain/media-path.js';
import { notesDisabled, parseAmount, parseSizeLimit } from '../domain/query-values.js';
import { NOTES } from '../notes.js';
import type { RouteContext } from './route-context.js';

const CONDITIONAL_HEADERS = ['range', 'if-range', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since'] as const;

/**
 * GET /:category (dotted) and GET /a/b/c (slashed): random images as JSON, or the bytes of one
 * image when the client prefers an image type over JSON.
 */
export function registerRandomRoutes(router: Express, { service, config, optionalApiKey, rateLimit }: RouteContext): void {
  const handle = async (db: string, req: Request, res: Response): Promise<void> => {
    const amount = parseAmount(req.query.amount);
    const sizeLimit = parseSizeLimit(req.query.sizeLimit);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept');
    if (prefersImage(req.headers.accept)) {
      const [image] = (await service.random(db, 1, sizeLimit)) as [ImageRecord];
      const headers = {
        'X-Yiffy-Artist': headerValue(image.artists),
        'X-Yiffy-Source': headerValue(image.sources),
        'X-Yiffy-Image-Width': String(image.width),
        'X-Yiffy-Image-Height': String(image.height),
        'X-Yiffy-Image-URL': headerValue(image.url),
        'X-Yiffy-Image-Type': headerValue(image.type),
        'X-Yiffy-Image-Name': headerValue(image.name),
        'X-Yiffy-Image-Size': String(image.size),
        'X-Yiffy-Image-Extension': headerValue(image.ext),
        'X-Yiffy-Short-URL': headerValue(image.shortURL ?? ''),
        'X-Yiffy-Report-URL': headerValue(image.reportURL ?? ''),
      } satisfies Record<ImageBytesHeader, string>;
      // Through sendFile's `headers`, applied only once the file is found: a missing file then
      // fails as plain JSON code 0, without image headers describing bytes that never come.
      // No ranges or validators: each request is a new random pick, so Range, If-Match or
      // If-None-Match would refer to bytes the client has never seen (send would answer 206,
      // 304, or fail with 412/416 after setting the image headers).
      for (const name of CONDITIONAL_HEADERS) delete req.headers[name];
      const options = { dotfiles: 'deny', cacheControl: false, lastModified: false, etag: false, acceptRanges: false, headers: { 'Content-Type': image.type, ...headers } } as const;
      await new Promise<void>((resolve, reject) => {
        res.sendFile(imageFilePath(config.mediaDir, image.id, image.ext), options, (error) => {
          // Once the bytes are flowing a failure (usually the client going away) has no one to
          // be reported to; only a failure before them is an error response.
          if (error && !res.headersSent) reject(error);
          else resolve();
        });
      });
      return;
    }
    const images = await service.random(db, amount, sizeLimit);
    res.json({ success: true, images, notes: notesDisabled(req.query.notes) ? [] : NOTES });
  };

  router.get('/:category', optionalApiKey(), rateLimit('images.random'), (req, res) => handle(req.params.category as string, req, res));
  router.get('/*splat', optionalApiKey(), rateLimit('images.random'), (req, res) => {
    const segments = (req.params as { splat: string[] }).splat;
    // A trailing slash is tolerated as it is on the dotted form (non-strict routing); other empty segments are not.
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    return handle(segments.join('.'), req, res);
  });
}
