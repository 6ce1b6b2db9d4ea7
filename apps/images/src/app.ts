import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import { imagesOpenApi } from '@pawlink/contracts/openapi';
import {
  createServiceApp,
  type DocsSection,
  type HttpMetrics,
  type Logger,
  type Readiness,
  type ReadOnlySwitch,
} from '@pawlink/service-kit';
import type { Express } from 'express';
import type { ImagesConfig } from './config.js';
import type { ImagesContainer } from './container.js';
import { registerBulkImagesRoute } from './routes/bulk-images.routes.js';
import { registerGetCategoryRoute } from './routes/get-category.routes.js';
import { registerGetImageRoute } from './routes/get-image.routes.js';
import { registerListCategoriesRoute } from './routes/list-categories.routes.js';
import { registerRandomImagesRoute } from './routes/random-images.routes.js';
import { CATEGORY_COUNTS_CACHE_MS, type CategoryCount } from './services/category-counts.service.js';

export interface ImagesAppDeps {
  config: ImagesConfig;
  logger: Logger;
  /** Shown by `/online`; no images endpoint is read-only affected. */
  readOnly: ReadOnlySwitch;
  /** Key and rate-limit guards from `createAccessGuards({ service: 'images', … })`. */
  guards: AccessGuards;
  services: Pick<ImagesContainer, 'images'>;
  metrics?: HttpMetrics;
  /** Process start (unix ms), for `/online`'s uptime. */
  startedAt?: number;
  /** What `/ready` asks: the runtime's dependencies. */
  readiness?: Readiness;
}

/** The documentation page's list of categories and their image counts. */
function categoriesSection(counts: CategoryCount[]): DocsSection {
  return {
    title: 'Categories',
    columns: ['Category', 'Key', 'Images', 'State'],
    rows: counts.map((c) => [c.name, c.db, c.images, c.enabled ? 'enabled' : 'disabled']),
    note:
      counts.length === 0 ? 'No categories yet.' : `Counts are at most ${CATEGORY_COUNTS_CACHE_MS / 1000} seconds old.`,
  };
}

/** The images HTTP API of docs/api.md §3; never listens (main.ts and tests do). */
export function createApp(deps: ImagesAppDeps): Express {
  const { images } = deps.services;
  const { app, finalize } = createServiceApp({
    service: 'images',
    ...deps,
    docs: {
      document: imagesOpenApi,
      urls: deps.config.urls,
      rateLimits: serviceRateLimits('images'),
      sections: async () => [categoriesSection(await images.categoryCounts.categoryCounts())],
    },
  });
  const routes = { guards: deps.guards, ...images };
  // On the app itself (not a sub-router) so the 405 handler sees every route's methods.
  registerGetStatusRoute(app, { service: 'images', guards: deps.guards, readOnly: deps.readOnly });
  registerListCategoriesRoute(app, routes);
  registerGetCategoryRoute(app, routes);
  registerGetImageRoute(app, routes);
  registerBulkImagesRoute(app, routes);
  // Last: the category paths take any other GET.
  registerRandomImagesRoute(app, routes);
  return finalize();
}
