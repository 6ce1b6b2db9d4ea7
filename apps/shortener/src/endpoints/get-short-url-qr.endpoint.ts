import { QR_MARGIN_DEFAULT, QR_MARGIN_MAX, QR_SIZE_DEFAULT, QR_SIZE_MAX, QR_SIZE_MIN } from '@pawlink/contracts';
import { header, media } from '@pawlink/contracts/openapi';
import { ApiError, inPath, inQuery } from '@pawlink/service-kit';
import { sendJsonLimited } from '../http/public-answers.http.js';
import { existingCode, qrFormat, wholeNumber } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/** A code's QR code never changes (it encodes `fullURL`, not the target): a day in any cache. */
const QR_CACHE_CONTROL = 'public, max-age=86400';
const CONTENT_TYPES = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png' } as const;

/**
 * GET /:code/qr `?format&size&margin`, public: the lookup limit (only for a code not held in
 * memory; a 429 in JSON like its 404) → validation → handler. A malformed code cannot exist (404
 * 1075); then, each 400 1057 when bad, `format` svg (default) or png, `size` 64–2048 (default 512),
 * `margin` 0–8 (default 2). Two path segments, so the redirect (`/:code`, fast lane included)
 * never takes it.
 */
export const getShortUrlQrEndpoint = shortenerEndpoint({
  operationId: 'getShortUrlQr',
  summary: 'QR code of a short URL',
  description:
    "A QR code of the entry's `fullURL` (expired entries too), as SVG (scalable) or PNG. Misses of the in-process entry cache count against the lookup limit (`shortener.lookup`, per client IP).",
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: '/:code/qr',
  guards: [
    {
      doc: {},
      use: ({ limitLookups, services }) =>
        limitLookups.when((code) => services.getShortUrlQr.needsLookup(code), sendJsonLimited),
    },
  ],
  fields: {
    code: inPath(existingCode()),
    format: inQuery(qrFormat()),
    size: inQuery(
      wholeNumber('size', {
        min: QR_SIZE_MIN,
        max: QR_SIZE_MAX,
        fallback: QR_SIZE_DEFAULT,
        description: `PNG only: the whole image's width and height in pixels, margin included (${QR_SIZE_MIN}–${QR_SIZE_MAX}); a size smaller than the code's modules is 400 1057.`,
      }),
    ),
    margin: inQuery(
      wholeNumber('margin', {
        min: 0,
        max: QR_MARGIN_MAX,
        fallback: QR_MARGIN_DEFAULT,
        description: `Quiet zone in modules (0–${QR_MARGIN_MAX}).`,
      }),
    ),
  },
  responses: {
    200: media('The QR code.', ['image/svg+xml', 'image/png'], { 'Cache-Control': header('Cache-Control', true) }),
  },
  errors: ['RATE_LIMITED_ROUTE', 'RATE_LIMITED_GLOBAL'],
  handler:
    ({ services }) =>
    async ({ input, res }) => {
      const qr = await services.getShortUrlQr.qr(input);
      if (!qr) throw new ApiError('SHORT_URL_NOT_FOUND');
      res
        .set({
          'Content-Type': CONTENT_TYPES[qr.format],
          'Cache-Control': QR_CACHE_CONTROL,
          'X-Content-Type-Options': 'nosniff',
        })
        .status(200)
        .send(qr.body);
    },
});
