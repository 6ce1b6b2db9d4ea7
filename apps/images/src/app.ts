import { ApiKeyRepository, createAccessGuards } from '@pawlink/auth';
import { createServiceApp, type Logger, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { ImagesConfig } from './config.js';
import { ImagesService } from './domain/images.service.js';
import { CategoryRepository } from './repositories/category.repository.js';
import { ImageRepository } from './repositories/image.repository.js';
import { RecordCache } from './repositories/record-cache.js';
import { SizeIndex } from './repositories/size-index.js';
import { registerBulkRoutes } from './routes/bulk.routes.js';
import { registerCategoryRoutes } from './routes/categories.routes.js';
import { registerImageInfoRoutes } from './routes/image-info.routes.js';
import { registerRandomRoutes } from './routes/random.routes.js';

export interface ImagesAppDeps {
  config: ImagesConfig;
  logger: Logger;
  redis: Redis;
  dataSources: { images: DataSource; auth: DataSource };
  readOnly: ReadOnlySwitch;
  /** Built from the other deps when not given (main.ts passes its own to warm the index). */
  service?: ImagesService;
}

/** The images domain service wired to its MySQL repositories and the Redis size index. */
export function createImagesService(deps: Omit<ImagesAppDeps, 'readOnly' | 'service'>): ImagesService {
  return new ImagesService({
    categories: new CategoryRepository(deps.dataSources.images),
    images: new ImageRepository(deps.dataSources.images),
    sizeIndex: new SizeIndex(deps.redis, deps.config.redis.prefix),
    records: new RecordCache(deps.redis, deps.config.redis.prefix),
    imagesMediaUrl: deps.config.urls.imagesMedia,
    logger: deps.logger,
    categoryCacheMs: deps.config.categoryCacheMs,
  });
}

/** The images HTTP API of API.md §3; never listens (main.ts and tests do). */
export function createApp(deps: ImagesAppDeps): Express {
  const { app, finalize } = createServiceApp({
    service: 'images',
    logger: deps.logger,
    readOnly: deps.readOnly,
    bodyLimitBytes: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
  });
  const guards = createAccessGuards({ service: 'images', apiKeys: new ApiKeyRepository(deps.dataSources.auth), redis: deps.redis, redisPrefix: deps.config.redis.prefix, logger: deps.logger });
  const context = {
    service: deps.service ?? createImagesService(deps),
    config: deps.config,
    requireApiKey: guards.requireKey,
    optionalApiKey: guards.optionalKey,
    rateLimit: guards.rateLimit,
  };
  // On the app itself (not a sub-router) so the 405 handler sees every route's methods.
  registerCategoryRoutes(app, context);
  registerImageInfoRoutes(app, context);
  registerBulkRoutes(app, context);
  // Last: the category paths take any other GET.
  registerRandomRoutes(app, context);
  return finalize();
}
