import { ApiKeyRepository, authDatabase, createAccessGuards } from '@pawlink/auth';
import { ReadOnlySwitch, runService } from '@pawlink/service-kit';
import { createApp } from './app.js';
import { loadImagesConfig } from './config.js';
import { createImagesContainer } from './container.js';
import { imagesDatabase } from './db/images.database.js';

await runService({
  name: 'images',
  loadConfig: loadImagesConfig,
  port: (config) => config.ports.images,
  url: (config) => config.urls.images,
  async start({ config, logger, startedAt, redis: connect, dataSource, onShutdown }) {
    const redis = connect('images');
    const [images, auth] = await Promise.all([dataSource(imagesDatabase), dataSource(authDatabase)]);

    const services = createImagesContainer({ config, logger, redis, dataSource: images });
    // A missing size index (fresh or flushed Redis) is rebuilt before serving; a category the
    // loop has not reached yet is rebuilt on its first request anyway.
    await services.sizeIndex.ensureAll();

    const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'images', config.readOnlyDefault, logger);
    await readOnly.start();
    onShutdown(() => Promise.resolve(readOnly.stop()));

    const guards = createAccessGuards({ service: 'images', apiKeys: new ApiKeyRepository(auth), redis, redisPrefix: config.redis.prefix, logger });
    return createApp({ config, logger, services, guards, readOnly, startedAt });
  },
});
