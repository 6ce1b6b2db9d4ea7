import type { AccessGuards } from '@pawlink/auth';
import { validate } from '@pawlink/service-kit';
import type { Express } from 'express';
import { getShortUrlStatsHandler } from '../handlers/get-short-url-stats.handler.js';
import type { GetShortUrlStatsService } from '../services/get-short-url-stats.service.js';
import { getShortUrlStatsValidation } from '../validation/get-short-url-stats.validation.js';

export interface GetShortUrlStatsRouteDeps {
  getShortUrlStats: GetShortUrlStatsService;
  guards: AccessGuards;
}

/** GET /:code/stats (docs/api.md): key → rate limit → validation → handler. */
export function registerGetShortUrlStatsRoute(
  app: Express,
  { getShortUrlStats, guards }: GetShortUrlStatsRouteDeps,
): void {
  app.get(
    '/:code/stats',
    guards.requireKey('shortener'),
    guards.rateLimit('shortener.stats'),
    validate(...getShortUrlStatsValidation),
    getShortUrlStatsHandler(getShortUrlStats),
  );
}
