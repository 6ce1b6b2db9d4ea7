import { authDatabase } from '@pawlink/auth';
import { createDataSource, createLogger, createRedis, exitOnConfigError, installGracefulShutdown, listen, ReadOnlySwitch } from '@pawlink/service-kit';
import { createRedirectCache, createRequestHandler } from './app.js';
import { loadShortenerConfig, type ShortenerConfig } from './config.js';
import { shortenerDatabase } from './shortener.database.js';

let config: ShortenerConfig;
try {
  config = loadShortenerConfig(process.env);
} catch (error) {
  exitOnConfigError(error);
}

const startedAt = Date.now();
const logger = createLogger('shortener', config.logLevel);
const redis = createRedis(config.redis, { name: 'shortener' });
const subscriber = createRedis(config.redis, { name: 'shortener-invalidate' });
const dataSource = createDataSource(config.database, shortenerDatabase);
const authDataSource = createDataSource(config.database, authDatabase);
await Promise.all([dataSource.initialize(), authDataSource.initialize()]);

const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'shortener', config.readOnlyDefault, logger);
await readOnly.start();
const cache = createRedirectCache({ config, redis, subscriber, dataSource, logger });
await cache.start();

const handler = createRequestHandler({ config, logger, redis, dataSource, authDataSource, readOnly, cache, startedAt });
const { server, port } = await listen(handler, config.ports.shortener);
logger.info('shortener listening', { port, url: config.urls.shortener });

installGracefulShutdown({
  servers: [server],
  closers: [
    () => Promise.resolve(readOnly.stop()),
    () => cache.stop(),
    () => subscriber.quit(),
    () => redis.quit(),
    () => dataSource.destroy(),
    () => authDataSource.destroy(),
  ],
  logger,
  timeoutMs: config.shutdownTimeoutMs,
});
