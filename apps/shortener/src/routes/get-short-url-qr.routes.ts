import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { LimitLookups } from '../guards/lookup-limit.guard.js';
import { getShortUrlQrHandler } from '../handlers/get-short-url-qr.handler.js';
import { sendJsonLimited } from '../http/public-answers.http.js';
import type { GetShortUrlQrService } from '../services/get-short-url-qr.service.js';
import { getShortUrlQrValidation } from '../validation/get-short-url-qr.validation.js';

export interface GetShortUrlQrRouteDeps {
  getShortUrlQr: GetShortUrlQrService;
  /** The per-IP `shortener.lookup` limit of the public paths, for a code not held in memory. */
  limitLookups: LimitLookups;
}

/**
 * GET /:code/qr (docs/api.md), public: the lookup limit (only for a code not held in memory; a 429
 * in JSON like its 404) → validation → handler. Two path segments, so the redirect (`/:code`, fast
 * lane included) never takes it.
 */
export function registerGetShortUrlQrRoute(
  app: Express,
  { getShortUrlQr, limitLookups }: GetShortUrlQrRouteDeps,
): void {
  app.get(
    '/:code/qr',
    limitLookups((_req, code) => getShortUrlQr.needsLookup(code), sendJsonLimited),
    validate(...getShortUrlQrValidation),
    getShortUrlQrHandler(getShortUrlQr),
  );
}
