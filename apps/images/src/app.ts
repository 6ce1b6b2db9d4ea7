import { registerGetStatusRoute, serviceRateLimits, type AccessGuards } from '@pawlink/auth';
import {
  createServiceApp,
  mountEndpoint,
  type DocsSection,
  type HttpMetrics,
  type Logger,
  type Readiness,
  type ReadOnlySwitch,
} from '@pawlink/service-kit';
import type { Express } from 'express';
import type { ImagesConfig } from './config.js';
import type { ImagesContainer } from './container.js';
import { IMAGES_ENDPOINTS } from './endpoints/images.endpoints.js';
import { imagesOpenApi } from './openapi.js';
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

/**
 * The images HTTP API of docs/api.md §3; never listens (main.ts and tests do). Each endpoint is
 * declared once in `endpoints/` (route, guards, fields, responses, handler; docs/adr/0016) and
 * mounted here; its document is generated from the same declarations.
 */
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
  const { config, guards, readOnly } = deps;
  // On the app itself (not a sub-router) so the 405 handler sees every route's methods.
  registerGetStatusRoute(app, { service: 'images', guards, readOnly });
  // In IMAGES_ENDPOINTS' order: the random pick last, its category paths take any other GET.
  for (const endpoint of IMAGES_ENDPOINTS) mountEndpoint(app, endpoint, { config, guards, readOnly, services: images });
  return finalize();
}
