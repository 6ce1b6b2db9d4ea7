import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { sendExpired, sendPreviewNotFound } from '../http/public-answers.http.js';
import type { PreviewShortUrlService } from '../services/preview-short-url.service.js';
import type { PreviewShortUrlInput } from '../validation/preview-short-url.validation.js';
import { PREVIEW_HEADERS, renderPreviewPage } from '../views/preview.page.js';

/** GET /:code+: the HTML preview, an HTML 410 when the link expired, or an HTML 404. */
export function previewShortUrlHandler(previews: PreviewShortUrlService): RequestHandler {
  return async (req, res) => {
    const { code } = validated<PreviewShortUrlInput>(req);
    const outcome = code === null ? ({ kind: 'unknown' } as const) : await previews.preview(code);
    if (outcome.kind === 'unknown') sendPreviewNotFound(res);
    else if (outcome.kind === 'expired') sendExpired(res, outcome.expired);
    else res.set(PREVIEW_HEADERS).status(200).send(renderPreviewPage(outcome.preview));
  };
}
