/** The images process, loaded by main.ts once telemetry (when on) is started. */
import { openAccessGuards } from '@pawlink/auth';
import { labelled, runService } from '@pawlink/service-kit';
import { createApp } from './app.js';
import { loadImagesConfig } from './config.js';
import { createImagesContainer } from './container.js';
import { imagesDatabase } from './db/images.database.js';

await runService({
  name: 'images',
  loadConfig: loadImagesConfig,
  port: (config) => config.ports.images,
  metricsPort: (config) => config.metrics.ports.images,
  url: (config) => config.urls.images,
  async start(runtime) {
    const { config, logger, startedAt } = runtime;
    const redis = runtime.redis('images');
    const services = createImagesContainer({
      config,
      logger,
      redis,
      dataSource: await runtime.dataSource(imagesDatabase),
    });
    // A missing size index (fresh or flushed Redis) is rebuilt before serving; a category the
    // loop has not reached yet is rebuilt on its first request anyway.
    await services.sizeIndex.ensureAll();
    if (services.shortLinks.configured) {
      services.shortLinkFiller.start();
      runtime.onShutdown(labelled('short-link filler', () => services.shortLinkFiller.stop()));
    } else {
      logger.info('SHORTENER_KEY is not set: images get no short links (shortURL stays null) until it is');
    }
    const readOnly = await runtime.readOnlySwitch('images', redis);
    const guards = await openAccessGuards(runtime, 'images', redis);
    return createApp({
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
