import { apiKeyOf } from '@pawlink/auth';
import type { ListShortUrlsResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ListShortUrlsService } from '../services/list-short-urls.service.js';
import type { ListShortUrlsInput } from '../validation/list-short-urls.validation.js';

/** GET /links: a page of the presenting key's entries and the cursor of the next one. */
export function listShortUrlsHandler(shortUrls: ListShortUrlsService): RequestHandler {
  return async (req, res) => {
    const { limit, cursor, q } = validated<ListShortUrlsInput>(req);
    // requireKey ran first: a key is always there.
    const ownerKeyId = apiKeyOf(res)!.id;
    const data = await shortUrls.list({
      ownerKeyId,
      limit,
      ...(cursor ? { after: cursor } : {}),
      ...(q !== undefined ? { q } : {}),
    });
    const response: ListShortUrlsResponse = { success: true, data };
    res.json(response);
  };
}
