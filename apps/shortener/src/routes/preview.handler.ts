import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../domain/short-url.service.js';
import { PREVIEW_HEADERS, renderNotFoundPage, renderPreviewPage } from './preview.page.js';

/** GET /:code+: the HTML preview, or an HTML 404. */
export function previewHandler(service: ShortUrlService): RequestHandler<{ code: string }> {
  return async (req, res) => {
    const entry = await service.find(req.params.code);
    res.set(PREVIEW_HEADERS);
    if (!entry) {
      res.status(404).send(renderNotFoundPage());
      return;
    }
    res.status(200).send(renderPreviewPage(service.toRecord(entry)));
  };
}
