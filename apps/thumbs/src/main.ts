import { authDatabase, ApiKeyRepository, createAccessGuards } from '@pawlink/auth';
import { createBoardClient } from '@pawlink/board';
import { thumbnailQueuePrefix } from '@pawlink/contracts';
import { ReadOnlySwitch, runService } from '@pawlink/service-kit';
import { createApp } from './app.js';
import { loadThumbsConfig } from './config.js';
import { createThumbsContainer } from './container.js';
import { startDurationRecorder } from './repositories/job-duration.repository.js';
import { openThumbnailQueue } from './repositories/thumbnail-queue.repository.js';

await runService({
  name: 'thumbs',
  loadConfig: (env) => loadThumbsConfig(env),
  port: (config) => config.ports.thumbs,
  url: (config) => config.urls.thumbs,
  async start(runtime) {
    const { config, logger } = runtime;
    const redis = runtime.redis('thumbs');
    const queue = openThumbnailQueue(runtime.redis('thumbs-queue', { forQueue: true }), config.redis.prefix);
    runtime.onShutdown(() => queue.close());
    const board = createBoardClient({ ...config.board, redis, redisPrefix: config.redis.prefix, maxSlotWaitMs: config.thumbs.boardMaxWaitMs, logger });
    const { thumbnails, durations } = createThumbsContainer({ redis, queue, board }, config);
    const recorder = startDurationRecorder({
      connection: runtime.redis('thumbs-events', { forQueue: true }),
      queuePrefix: thumbnailQueuePrefix(config.redis.prefix),
      queue,
      durations,
      onError: (error) => logger.warn('could not record a job duration', { error }),
    });
    runtime.onShutdown(() => recorder.close());
    const apiKeys = new ApiKeyRepository(await runtime.dataSource({ ...authDatabase, poolSize: 5 }));
    const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'thumbs', config.readOnlyDefault, logger);
    await readOnly.start();
    runtime.onShutdown(() => Promise.resolve(readOnly.stop()));
    const guards = createAccessGuards({ service: 'thumbs', apiKeys, redis, redisPrefix: config.redis.prefix, logger });
    return createApp({ config, logger, readOnly, guards, thumbnails, startedAt: runtime.startedAt });
  },
});
