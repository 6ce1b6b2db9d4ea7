import '@pawlink/service-kit/check-node';
import { openAccessGuards, openApiKeys } from '@pawlink/auth';
import { createBoardClient } from '@pawlink/board';
import { thumbnailQueuePrefix } from '@pawlink/contracts';
import { logUnlessUnavailable, runService } from '@pawlink/service-kit';
import { createApp } from './app.js';
import { loadThumbsConfig } from './config.js';
import { createThumbsContainer } from './container.js';
import { startDurationRecorder } from './repositories/job-duration.repository.js';
import { openThumbnailQueue } from './repositories/thumbnail-queue.repository.js';

await runService({
  name: 'thumbs',
  loadConfig: loadThumbsConfig,
  port: (config) => config.ports.thumbs,
  metricsPort: (config) => config.metrics.ports.thumbs,
  url: (config) => config.urls.thumbs,
  async start(runtime) {
    const { config, logger, startedAt, redis: connect, onShutdown } = runtime;
    const redis = connect('thumbs');
    // The API only adds and reads jobs (no blocking commands): its queue connection fails fast too.
    const queue = openThumbnailQueue(connect('thumbs-queue'), config.redis.prefix);
    queue.on('error', logUnlessUnavailable(logger, 'thumbnail queue error'));
    onShutdown(() => queue.close());
    const board = createBoardClient({ ...config.board, redis, redisPrefix: config.redis.prefix, maxSlotWaitMs: config.thumbs.boardMaxWaitMs, logger });
    const apiKeys = await openApiKeys(runtime);
    const services = createThumbsContainer({ config, redis, queue, board, apiKeys });

    // Durations of jobs finished by any worker feed every instance's estimates.
    const recorder = startDurationRecorder({
      connection: connect('thumbs-events', { forQueue: true }),
      queuePrefix: thumbnailQueuePrefix(config.redis.prefix),
      queue,
      durations: services.durations,
      onError: logUnlessUnavailable(logger, 'could not record a job duration'),
    });
    onShutdown(() => recorder.close());

    const readOnly = await runtime.readOnlySwitch('thumbs', redis);
    const guards = await openAccessGuards(runtime, 'thumbs', redis, apiKeys);
    return createApp({ config, logger, services, queue, guards, readOnly, startedAt, readiness: runtime.readiness, metrics: runtime.metrics });
  },
});
