import { authDatabase } from '@pawlink/auth';
import { createDataSource, createLogger, createRedis, exitOnConfigError, installGracefulShutdown, listen, ReadOnlySwitch } from '@pawlink/service-kit';
import { createApp, createImagesService } from './app.js';
import { loadImagesConfig, type ImagesConfig } from './config.js';
import { imagesDatabase } from './db/images.database.js';

let config: ImagesConfig;
try {
  config = loadImagesConfig(process.env);
} catch (error) {
  exitOnConfigError(error);
}

const logger = createLogger('images', config.logLevel);
const redis = createRedis(config.redis, { name: 'images' });
const images = createDataSource(config.database, imagesDatabase);
const auth = createDataSource(config.database, authDatabase);
await Promise.all([images.initialize(), auth.initialize()]);

const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'images', config.readOnlyDefault, logger);
await readOnly.start();

const dataSources = { images, auth };
const service = createImagesService({ config, logger, redis, dataSources });
// A missing size index (fresh or flushed Redis) is rebuilt before serving; a category the
// loop has not reached yet is rebuilt lazily on its first request anyway.
await service.ensureIndexes();

const app = createApp({ config, logger, redis, dataSources, readOnly, service });
const { server, port } = await listen(app, config.ports.images);
logger.info('images service listening', { port, url: config.urls.images });

installGracefulShutdown({
  servers: [server],
  closers: [() => Promise.resolve(readOnly.stop()), () => redis.quit(), () => images.destroy(), () => auth.destroy()],
  logger,
  timeoutMs: config.shutdownTimeoutMs,
});
