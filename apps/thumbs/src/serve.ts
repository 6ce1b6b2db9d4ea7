/** The thumbs process, loaded by main.ts once telemetry (when on) is started. */
import { openAccessGuards, openApiKeys } from '@pawlink/auth';
import { runService } from '@pawlink/service-kit';
import { createApp } from './app.js';
import { loadThumbsConfig } from './config.js';
import { createThumbsContainer } from './container.js';
import { registerQueueMetrics } from './metrics/queue.metrics.js';

await runService({
  name: 'thumbs',
  loadConfig: loadThumbsConfig,
  port: (config) => config.ports.thumbs,
  metricsPort: (config) => config.metrics.ports.thumbs,
  url: (config) => config.urls.thumbs,
  async start(runtime) {
    const { config, logger, startedAt, redis: connect, onShutdown } = runtime;
    const redis = connect('thumbs');
    const apiKeys = await openApiKeys(runtime);
    const services = createThumbsContainer({
      config,
      logger,
      redis,
      queueRedis: connect('thumbs-queue'),
      eventsRedis: () => connect('thumbs-events', { forQueue: true }),
      apiKeys,
    });
    onShutdown(() => services.close());
    registerQueueMetrics(runtime.metrics.registry, [services.queue, services.callbackQueue]);
    services.durationRecorder.start();
    onShutdown(() => services.durationRecorder.close());

    const readOnly = await runtime.readOnlySwitch('thumbs', redis);
    const guards = await openAccessGuards(runtime, 'thumbs', redis, apiKeys);
    return createApp({
      config,
      logger,
      services,
      queue: services.queue,
      callbackQueue: services.callbackQueue,
      guards,
      readOnly,
      startedAt,
      readiness: runtime.readiness,
      metrics: runtime.metrics,
    });
  },
});
