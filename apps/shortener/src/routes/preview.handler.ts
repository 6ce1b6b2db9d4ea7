import type { RequestHandler, Response } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';
import { PREVIEW_HEADERS, renderNotFoundPage, renderPreviewPage } from './preview.page.js';

/** The preview's 404: an HTML page under the same CSP. */
export function sendPreviewNotFound(res: Response): void {
  res.set(PREVIEW_HEADERS).status(404).send(renderNotFoundPage());
}

/** GET /:code+: the HTML preview, or an HTML 404. */
export function previewHandler(service: ShortUrlService): RequestHandler<{ code: string }> {
  return async (req, res) => {
    const entry = await service.find(req.params.code);
    if (!entry) {
      sendPreviewNotFound(res);
      return;
    }
    res.set(PREVIEW_HEADERS).status(200).send(renderPreviewPage(service.toRecord(entry), entry.urlChangedAt?.toISOString() ?? null));
  };
}
