import type { AccessGuards } from '@pawlink/auth';
import type { ImagesConfig } from '../config.js';
import type { ImagesService } from '../domain/images.service.js';

/** What the route modules share. */
export interface RouteContext {
  service: ImagesService;
  config: ImagesConfig;
  requireApiKey: AccessGuards['requireKey'];
  optionalApiKey: AccessGuards['optionalKey'];
  rateLimit: AccessGuards['rateLimit'];
}
