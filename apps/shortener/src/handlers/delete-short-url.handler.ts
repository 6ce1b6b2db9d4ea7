import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { DeleteShortUrlService } from '../services/delete-short-url.service.js';
import type { DeleteShortUrlInput } from '../validation/delete-short-url.validation.js';

/** DELETE /:code {managementCode}, and its alias POST /delete {code, managementCode}: 204. */
export function deleteShortUrlHandler(shortUrls: DeleteShortUrlService): RequestHandler {
  return async (req, res) => {
    const { code, managementCode } = validated<DeleteShortUrlInput>(req);
    await shortUrls.delete(code, managementCode);
    res.status(204).end();
  };
}
