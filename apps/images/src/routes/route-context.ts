import type { ApiKeyAuth, createRateLimit } from '@pawlink/auth';
import type { ImagesConfig } from '../config.js';
import type { ImagesService } from '../domain/images.service.js';

/** What the route modules share. */
export interface RouteContext {
  service: ImagesService;
  config: ImagesConfig;
  requireApiKey: ApiKeyAuth['requireApiKey'];
  optionalApiKey: ApiKeyAuth['optionalApiKey'];
  rateLimit: ReturnType<typeof createRateLimit>;
}
