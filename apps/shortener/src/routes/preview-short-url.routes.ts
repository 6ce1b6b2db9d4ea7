import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { LimitLookups } from '../guards/lookup-limit.guard.js';
import { previewShortUrlHandler } from '../handlers/preview-short-url.handler.js';
import { sendPreviewLimited } from '../http/public-answers.http.js';
import type { PreviewShortUrlService } from '../services/preview-short-url.service.js';
import { previewShortUrlValidation } from '../validation/preview-short-url.validation.js';

export interface PreviewShortUrlRouteDeps {
  previewShortUrl: PreviewShortUrlService;
  /** The per-IP `shortener.lookup` limit, shared with the redirect. */
  limitLookups: LimitLookups;
}

/**
 * GET /:code+ (docs/api.md), public: the lookup limit (only for a preview not held in memory) →
 * validation → handler.
 */
export function registerPreviewShortUrlRoute(
  app: Express,
  { previewShortUrl, limitLookups }: PreviewShortUrlRouteDeps,
): void {
  app.get(
    '/:code\\+',
    limitLookups((_req, code) => previewShortUrl.needsLookup(code), sendPreviewLimited),
    validate(...previewShortUrlValidation),
    previewShortUrlHandler(previewShortUrl),
  );
}
