import { ApiError, validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { GetShortUrlQrService } from '../services/get-short-url-qr.service.js';
import type { GetShortUrlQrInput } from '../validation/get-short-url-qr.validation.js';

/** A code's QR code never changes (it encodes `fullURL`, not the target): a day in any cache. */
const QR_CACHE_CONTROL = 'public, max-age=86400';
const CONTENT_TYPES = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png' } as const;

/** GET /:code/qr: the QR code of the short link as SVG or PNG; 404 1075 (JSON) for an unknown code. */
export function getShortUrlQrHandler(shortUrls: GetShortUrlQrService): RequestHandler {
  return async (req, res) => {
    const qr = await shortUrls.qr(validated<GetShortUrlQrInput>(req));
    if (!qr) throw new ApiError('SHORT_URL_NOT_FOUND');
    res
      .set({
        'Content-Type': CONTENT_TYPES[qr.format],
        'Cache-Control': QR_CACHE_CONTROL,
        'X-Content-Type-Options': 'nosniff',
      })
      .status(200)
      .send(qr.body);
  };
}
