import type { AccessGuards } from '@pawlink/auth';
import { empty, header, type ParameterObject, type ResponseObject } from '@pawlink/contracts/openapi';
import { defineEndpoint, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { ImagesConfig } from '../config.js';
import type { BulkImagesService } from '../services/bulk-images.service.js';
import type { GetCategoryService } from '../services/get-category.service.js';
import type { GetImageService } from '../services/get-image.service.js';
import type { ListCategoriesService } from '../services/list-categories.service.js';
import type { RandomImagesService } from '../services/random-images.service.js';

/** One service per endpoint (docs/architecture.md); container.ts builds them. */
export interface ImagesServices {
  listCategories: ListCategoriesService;
  getCategory: GetCategoryService;
  getImage: GetImageService;
  randomImages: RandomImagesService;
  bulkImages: BulkImagesService;
}

/** What the images endpoints are made from (app.ts gives it once, to every endpoint). */
export interface ImagesEndpointDeps {
  config: ImagesConfig;
  services: ImagesServices;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
}

/** Declares one of the images service's endpoints (docs/adr/0016). */
export const imagesEndpoint = defineEndpoint<ImagesEndpointDeps>();

/** The tag of every images operation in the document. */
export const IMAGES_TAGS = ['images'];

/**
 * The category lists carry a validator (`sendRevalidatableJson`): a client that polls them sends
 * `If-None-Match` and gets a 304 instead of the body again.
 */
export const REVALIDATION = {
  parameter: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag of a copy you hold: 304 without a body while it is still current.',
    schema: { type: 'string' },
  },
  notModified: empty('Not modified: the copy whose ETag you sent is current.', { ETag: header('ETag', true) }),
  etag: { ETag: header('ETag', true) },
} as const satisfies { parameter: ParameterObject; notModified: ResponseObject; etag: ResponseObject['headers'] };
