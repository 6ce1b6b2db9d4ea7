import { header, media } from '@pawlink/contracts/openapi';
import { inPath } from '@pawlink/service-kit';
import {
  expiredPage,
  lookupLimited,
  sendExpired,
  sendPreviewLimited,
  sendPreviewNotFound,
} from '../http/public-answers.http.js';
import { PREVIEW_HEADERS, renderPreviewPage } from '../views/preview.page.js';
import { publicCode } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/**
 * GET /:code+, public: the lookup limit (only for a preview not held in memory) → validation →
 * handler. The HTML preview, an HTML 410 when the link expired, or an HTML 404.
 */
export const previewShortUrlEndpoint = shortenerEndpoint({
  operationId: 'previewShortUrl',
  summary: 'Preview page of a short URL',
  description:
    "HTML: the target URL, credit, times, a copy button and the link's QR code (inline SVG, with PNG and SVG download links), under a strict CSP. Misses of the in-process preview cache count against the lookup limit.",
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: '/:code\\+',
  guards: [
    {
      doc: {},
      use: ({ limitLookups, services }) =>
        limitLookups.when((code) => services.previewShortUrl.needsLookup(code), sendPreviewLimited),
    },
  ],
  fields: { code: inPath(publicCode()) },
  responses: {
    200: media('The preview page.', ['text/html'], {
      'Content-Security-Policy': header('Content-Security-Policy', true),
    }),
    404: media('No such short URL (an HTML page).', ['text/html'], {
      'Content-Security-Policy': header('Content-Security-Policy', true),
    }),
    410: expiredPage(),
    429: lookupLimited('text/html'),
  },
  handler:
    ({ services }) =>
    async ({ input: { code }, res }) => {
      const outcome = code === null ? ({ kind: 'unknown' } as const) : await services.previewShortUrl.preview(code);
      if (outcome.kind === 'unknown') sendPreviewNotFound(res);
      else if (outcome.kind === 'expired') sendExpired(res, outcome.expired);
      else res.set(PREVIEW_HEADERS).status(200).send(renderPreviewPage(outcome.preview));
    },
});
