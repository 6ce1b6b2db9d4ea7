import { apiKeyOf } from '@pawlink/auth';
import type { BulkImagesResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { keyAccessOf } from '../http/key-access.http.js';
import type { BulkImagesService } from '../services/bulk-images.service.js';
import type { BulkImagesInput } from '../validation/bulk-images.validation.js';

/** POST /bulk — images of many categories at once, up to the key's bulk limit. */
export function bulkImagesHandler(bulkImages: Pick<BulkImagesService, 'bulk'>): RequestHandler {
  return async (req, res) => {
    const { sizeLimit, type, exclude, '': requests } = validated<BulkImagesInput>(req);
    // requireKey ran first, so there is a key; 0 would refuse everything if there were not.
    const limit = apiKeyOf(res)?.bulkLimit ?? 0;
    res.setHeader('Cache-Control', 'no-store');
    const body: BulkImagesResponse = {
      success: true,
      data: await bulkImages.bulk(requests, { ...keyAccessOf(res), limit, sizeLimit, type, exclude }),
    };
    res.json(body);
  };
}
