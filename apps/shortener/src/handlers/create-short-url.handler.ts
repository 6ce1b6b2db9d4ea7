import { apiKeyOf } from '@pawlink/auth';
import type { CreateShortUrlResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { CreateShortUrlService } from '../services/create-short-url.service.js';
import type { CreateShortUrlInput } from '../validation/create-short-url.validation.js';

/** POST /create: 201 with the new record and its management code (owned by the presenting key); 200 with the url's shared entry. */
export function createShortUrlHandler(shortUrls: CreateShortUrlService): RequestHandler {
  return async (req, res) => {
    const result = await shortUrls.create({
      ...validated<CreateShortUrlInput>(req),
      ownerKeyId: apiKeyOf(res)?.id ?? null,
    });
    const response: CreateShortUrlResponse = {
      success: true,
      data: { ...result.record, managementCode: result.managementCode },
    };
    res.status(result.created ? 201 : 200).json(response);
  };
}
