import { bulkImagesEndpoint } from './bulk-images.endpoint.js';
import { getCategoryEndpoint } from './get-category.endpoint.js';
import { getImageEndpoint } from './get-image.endpoint.js';
import { listCategoriesEndpoint } from './list-categories.endpoint.js';
import { randomImagesEndpoint } from './random-images.endpoint.js';

/**
 * The images endpoints (docs/api.md §3) in the order app.ts mounts them, which their patterns
 * need: the fixed paths first, the random pick last (its `/:category` and `/*category` take any
 * other GET).
 */
export const IMAGES_ENDPOINTS = [
  listCategoriesEndpoint,
  getCategoryEndpoint,
  getImageEndpoint,
  bulkImagesEndpoint,
  randomImagesEndpoint,
] as const;
