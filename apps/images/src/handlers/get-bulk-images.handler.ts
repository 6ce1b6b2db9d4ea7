import { apiKeyOf } from '@pawlink/auth';
import type { BulkImagesResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ImagesService } from '../services/images.service.js';
import type { BulkInput } from '../validation/bulk.validation.js';
import { keyAccessOf } from './key-access.js';

/** POST /bulk — images of many categories at once, up to the key's bulk limit. */
export function getBulkImagesHandler(images: Pick<ImagesService, 'bulk'>): RequestHandler {
  return async (req, res) => {
    const { sizeLimit, type, exclude, '': requests } = validated<BulkInput>(req);
    // requireKey ran first, so there is a key; 0 would refuse everything if there were not.
    const limit = apiKeyOf(res)?.bulkLimit ?? 0;
    res.setHeader('Cache-Control', 'no-store');
    const body: BulkImagesResponse = { success: true, data: await images.bulk(requests, { ...keyAccessOf(res), limit, sizeLimit, type, exclude }) };
    res.json(body);
  };
}
