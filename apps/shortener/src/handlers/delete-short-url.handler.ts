import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ShortUrlService } from '../services/short-url.service.js';
import type { DeleteShortUrlInput } from '../validation/short-url.validation.js';

/** DELETE /:code {managementCode}, and its alias POST /delete {code, managementCode}: 204. */
export function deleteShortUrlHandler(shortUrls: ShortUrlService): RequestHandler {
  return async (req, res) => {
    const { code, managementCode } = validated<DeleteShortUrlInput>(req);
    await shortUrls.remove(code, managementCode);
    res.status(204).end();
  };
}
