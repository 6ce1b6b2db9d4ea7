/** The shortener process, loaded by main.ts once telemetry (when on) is started. */
import { openAccessGuards } from '@pawlink/auth';
import { runService } from '@pawlink/service-kit';
import { createRequestHandler } from './app.js';
import { loadShortenerConfig } from './config.js';
import { createShortenerContainer } from './container.js';
import { shortenerDatabase } from './db/shortener.database.js';

await runService({
  name: 'shortener',
  loadConfig: loadShortenerConfig,
  port: (config) => config.ports.shortener,
  metricsPort: (config) => config.metrics.ports.shortener,
  url: (config) => config.urls.shortener,
  async start(runtime) {
    const { config, logger, startedAt } = runtime;
    const redis = runtime.redis('shortener');
    const services = createShortenerContainer({
      config,
      logger,
      redis,
      subscriber: runtime.redis('shortener-invalidate', { subscriber: true }),
      dataSource: await runtime.dataSource(shortenerDatabase),
    });
    await services.redirectCache.start();
    runtime.onShutdown(() => services.redirectCache.stop());
    // At shutdown (last registered runs first): the tally goes to Redis, then a last move to MySQL.
    services.visitMover.start();
    runtime.onShutdown(() => services.visitMover.stop());
    services.visitTally.start();
    runtime.onShutdown(() => services.visitTally.stop());
    const readOnly = await runtime.readOnlySwitch('shortener', redis);
    const guards = await openAccessGuards(runtime, 'shortener', redis);
    return createRequestHandler({
      config,
      logger,
      services,
      guards,
      readOnly,
      startedAt,
      readiness: runtime.readiness,
      metrics: runtime.metrics,
    });
  },
});
