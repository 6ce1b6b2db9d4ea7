import { validated, type ApiError } from '@pawlink/service-kit';
import type { RequestHandler, Response } from 'express';
import type { ShortUrlService } from '../services/short-url.service.js';
import type { PublicCodeInput } from '../validation/short-url.validation.js';
import { PREVIEW_HEADERS, renderLimitedPage, renderNotFoundPage, renderPreviewPage } from '../views/preview.page.js';
import { limitedText } from './lookup-limit.js';
import { sendExpired } from './redirect.handler.js';

/** The preview's 404: an HTML page under the same CSP. */
export function sendPreviewNotFound(res: Response): void {
  res.set(PREVIEW_HEADERS).status(404).send(renderNotFoundPage());
}

/** The preview's 429 (lookup limit): an HTML page under the same CSP, with the rate-limit headers. */
export function sendPreviewLimited(res: Response, error: ApiError): void {
  res.set(error.headers).set(PREVIEW_HEADERS).status(error.httpStatus).send(renderLimitedPage(limitedText(error)));
}

/** GET /:code+: the HTML preview, an HTML 410 when the link expired, or an HTML 404. */
export function previewShortUrlHandler(shortUrls: ShortUrlService): RequestHandler {
  return async (req, res) => {
    const { code } = validated<PublicCodeInput>(req);
    const outcome = code === null ? ({ kind: 'unknown' } as const) : await shortUrls.preview(code);
    if (outcome.kind === 'unknown') sendPreviewNotFound(res);
    else if (outcome.kind === 'expired') sendExpired(res, outcome.expired);
    else res.set(PREVIEW_HEADERS).status(200).send(renderPreviewPage(outcome.preview));
  };
}
