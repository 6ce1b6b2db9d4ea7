import type { ShortUrlInfoResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { UpdateShortUrlService } from '../services/update-short-url.service.js';
import type { UpdateShortUrlInput } from '../validation/update-short-url.validation.js';

/** PATCH /:code {managementCode, url?, credit?, expiresAt?, maxVisits?}: the changed record with its visits. */
export function updateShortUrlHandler(shortUrls: UpdateShortUrlService): RequestHandler {
  return async (req, res) => {
    const { code, managementCode, url, credit, expiresAt, maxVisits } = validated<UpdateShortUrlInput>(req);
    const response: ShortUrlInfoResponse = {
      success: true,
      data: await shortUrls.update(code, { managementCode, url, credit, expiresAt, maxVisits }),
    };
    res.json(response);
  };
}
