import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import { imagesOpenApi } from '@pawlink/contracts/openapi';
import { createServiceApp, type DocsSection, type HttpMetrics, type Logger, type Readiness, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { ImagesConfig } from './config.js';
import type { ImagesContainer } from './container.js';
import { registerBulkRoutes } from './routes/bulk.routes.js';
import { registerCategoryRoutes } from './routes/categories.routes.js';
import { registerImageInfoRoutes } from './routes/image-info.routes.js';
import { registerRandomRoutes } from './routes/random.routes.js';
import { CATEGORY_COUNTS_CACHE_MS, type CategoryCount } from './services/images.service.js';

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
    note: counts.length === 0 ? 'No categories yet.' : `Counts are at most ${CATEGORY_COUNTS_CACHE_MS / 1000} seconds old.`,
  };
}

/** The images HTTP API of API.md §3; never listens (main.ts and tests do). */
export function createApp(deps: ImagesAppDeps): Express {
  const { images } = deps.services;
  const { app, finalize } = createServiceApp({
    service: 'images',
    ...deps,
    docs: { document: imagesOpenApi, urls: deps.config.urls, rateLimits: serviceRateLimits('images'), sections: async () => [categoriesSection(await images.categoryCounts())] },
  });
  const routes = { guards: deps.guards, images: deps.services.images };
  // On the app itself (not a sub-router) so the 405 handler sees every route's methods.
  registerGetStatusRoute(app, { service: 'images', guards: deps.guards, readOnly: deps.readOnly });
  registerCategoryRoutes(app, routes);
  registerImageInfoRoutes(app, routes);
  registerBulkRoutes(app, routes);
  // Last: the category paths take any other GET.
  registerRandomRoutes(app, routes);
  return finalize();
}
