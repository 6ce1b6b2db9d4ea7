import { ApiKeyRepository, authDatabase, createAccessGuards } from '@pawlink/auth';
import { ReadOnlySwitch, runService } from '@pawlink/service-kit';
import { createApp } from './app.js';
import { loadImagesConfig } from './config.js';
import { createImagesContainer } from './container.js';
import { imagesDatabase } from './db/images.database.js';

await runService({
  name: 'images',
  loadConfig: (env) => loadImagesConfig(env),
  port: (config) => config.ports.images,
  url: (config) => config.urls.images,
  async start(runtime) {
    const { config, logger } = runtime;
    const redis = runtime.redis('images');
    const [images, auth] = await Promise.all([runtime.dataSource(imagesDatabase), runtime.dataSource(authDatabase)]);
    const container = createImagesContainer({ images, redis }, config, logger);
    // A missing size index (fresh or flushed Redis) is rebuilt before serving; a category the
    // loop has not reached yet is rebuilt on its first request anyway.
    await container.sizeIndex.ensureAll();
    const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'images', config.readOnlyDefault, logger);
    await readOnly.start();
    runtime.onShutdown(() => Promise.resolve(readOnly.stop()));
    const guards = createAccessGuards({ service: 'images', apiKeys: new ApiKeyRepository(auth), redis, redisPrefix: config.redis.prefix, logger });
    return createApp({ config, logger, readOnly, guards, images: container.images, startedAt: runtime.startedAt });
  },
});
