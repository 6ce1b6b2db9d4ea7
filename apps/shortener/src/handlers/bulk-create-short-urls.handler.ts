import { apiKeyOf } from '@pawlink/auth';
import type { BulkCreateShortUrlsResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { BulkCreateShortUrlsService } from '../services/bulk-create-short-urls.service.js';
import { bulkCreateItem, type BulkCreateShortUrlsInput } from '../validation/bulk-create-short-urls.validation.js';

/** POST /create/bulk: 200 with one result per item, in input order. */
export function bulkCreateShortUrlsHandler(shortUrls: BulkCreateShortUrlsService): RequestHandler {
  return async (req, res) => {
    const { editable, links } = validated<BulkCreateShortUrlsInput>(req);
    const items = await Promise.all(links.map((item, index) => bulkCreateItem(item, index, req)));
    const data = await shortUrls.createAll(items, { editable, ownerKeyId: apiKeyOf(res)?.id ?? null });
    const response: BulkCreateShortUrlsResponse = { success: true, data };
    res.json(response);
  };
}
