import { CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import { createLogger } from '@pawlink/service-kit/logger';
import type { BaseConfig } from '@pawlink/service-kit';
import { loadImagesConfig, type ImagesConfig, type ImagesSettings } from '../config.js';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { createCategoryAdmin, createImagesContainer, type ImagesContainer } from '../container.js';
import { imagesDatabase } from '../db/images.database.js';
import type { CategoryAdminService } from '../services/category-admin.service.js';

/**
 * Every images command writes Redis (size index, record cache) as well as MySQL and the media
 * directory: check Redis answers before touching anything, so an outage stops the command with
 * one clear line instead of leaving rows that the random index does not know.
 */
async function requireRedis(redis: RedisClient): Promise<void> {
  // bin/admin's client has no 'error' listener, so ioredis would print every failed connection
  // attempt with a stack trace; the failure is reported below instead.
  if (redis.listenerCount('error') === 0) redis.on('error', () => undefined);
  try {
    await redis.ping();
  } catch (error) {
    throw new CommandFailure(`Redis (REDIS_URL) is unreachable: ${(error as Error).message}`);
  }
}

/**
 * bin/admin's context carries the shared configuration; the images settings (SHORTENER_KEY and
 * the rest of the short-link settings) are read from the environment as the service reads them.
 * A context built from an ImagesConfig (the tests') brings its own.
 */
export function imagesSettings(config: BaseConfig): ImagesSettings {
  return 'images' in config ? (config as ImagesConfig).images : loadImagesConfig(process.env).images;
}

/**
 * The images services for `bin/admin images …`, once Redis answers. Their log lines (an index
 * rebuilt) are not the operator's output, which the commands print themselves.
 */
export async function openImagesContainer(context: CliContext): Promise<ImagesContainer> {
  await requireRedis(context.redis);
  return createImagesContainer({
    // Nothing the CLI runs reads categories through the HTTP service's cache.
    config: { ...context.config, images: { ...imagesSettings(context.config), categoryCacheMs: 0 } },
    logger: createLogger('images', 'error', { silent: true }),
    redis: context.redis,
    dataSource: await context.dataSource(imagesDatabase),
  });
}

/** Category administration for `bin/admin category …`, which needs MySQL only. */
export async function openCategoryAdmin(context: CliContext): Promise<CategoryAdminService> {
  return createCategoryAdmin(await context.dataSource(imagesDatabase));
}
