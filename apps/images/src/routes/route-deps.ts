import type { AccessGuards } from '@pawlink/auth';
import type { ImagesService } from '../services/images.service.js';

/** What the route tables are built from. */
export interface ImagesRouteDeps {
  /** Key and rate-limit guards from `createAccessGuards({ service: 'images', … })`. */
  guards: AccessGuards;
  images: ImagesService;
}
