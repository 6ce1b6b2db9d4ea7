import { IMAGES_SCHEMAS } from '@pawlink/contracts';
import { endpointsDocument } from '@pawlink/service-kit';
import { IMAGES_ENDPOINTS } from './endpoints/images.endpoints.js';

/** The images OpenAPI document (docs/api.md §3), generated from its endpoint declarations (docs/adr/0016). */
export const imagesOpenApi = endpointsDocument({
  service: 'images',
  title: 'Pawlink images',
  description:
    'Random images by category, as JSON records or as the bytes of one image; category listings and bulk picks.',
  tags: [{ name: 'images', description: 'Categories and random images.' }],
  schemas: IMAGES_SCHEMAS,
  endpoints: IMAGES_ENDPOINTS,
});
