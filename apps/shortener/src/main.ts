import { ApiKeyRepository, authDatabase, createAccessGuards } from '@pawlink/auth';
import { ReadOnlySwitch, runService } from '@pawlink/service-kit';
import { createRequestHandler } from './app.js';
import { loadShortenerConfig } from './config.js';
import { createShortenerContainer } from './container.js';
import { shortenerDatabase } from './db/shortener.database.js';

await runService({
  name: 'shortener',
  loadConfig: loadShortenerConfig,
  port: (config) => config.ports.shortener,
  url: (config) => config.urls.shortener,
  async start({ config, logger, startedAt, redis: connect, dataSource, onShutdown }) {
    const redis = connect('shortener');
    const subscriber = connect('shortener-invalidate');
    const [shortener, auth] = await Promise.all([dataSource(shortenerDatabase), dataSource(authDatabase)]);

    const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'shortener', config.readOnlyDefault, logger);
    await readOnly.start();
    onShutdown(() => Promise.resolve(readOnly.stop()));

    const services = createShortenerContainer({ config, logger, redis, subscriber, dataSource: shortener });
    await services.redirectCache.start();
    onShutdown(() => services.redirectCache.stop());

    const guards = createAccessGuards({ service: 'shortener', apiKeys: new ApiKeyRepository(auth), redis, redisPrefix: config.redis.prefix, logger });
    return createRequestHandler({ config, logger, services, guards, readOnly, startedAt });
  },
});
