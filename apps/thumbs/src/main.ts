import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { BoardUnavailableError, createBoardClient } from '@pawlink/board';
import { THUMBNAIL_QUEUE, thumbnailQueuePrefix, type ThumbnailJobPayload } from '@pawlink/contracts';
import {
  createDataSource,
  createLogger,
  createRedis,
  exitOnConfigError,
  installGracefulShutdown,
  listen,
  ReadOnlySwitch,
} from '@pawlink/service-kit';
import { Queue } from 'bullmq';
import { createApp } from './app.js';
import { loadThumbsConfig, type ThumbsConfig } from './config.js';
import { JobDurationRepository, startDurationRecorder } from './thumbnails/job-duration.repository.js';
import { boardPostResolver } from './thumbnails/post-resolver.js';

let config: ThumbsConfig;
try {
  config = loadThumbsConfig(process.env);
} catch (error) {
  exitOnConfigError(error);
}

const logger = createLogger('thumbs', config.logLevel);
const redis = createRedis(config.redis, { name: 'thumbs' });
const queueConnection = createRedis(config.redis, { forQueue: true, name: 'thumbs-queue' });
const eventsConnection = createRedis(config.redis, { forQueue: true, name: 'thumbs-events' });
const queuePrefix = thumbnailQueuePrefix(config.redis.prefix);
const queue = new Queue<ThumbnailJobPayload>(THUMBNAIL_QUEUE, { connection: queueConnection, prefix: queuePrefix });
const authDataSource = createDataSource(config.database, { ...authDatabase, poolSize: 5 });
await authDataSource.initialize();

const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'thumbs', config.readOnlyDefault, logger);
await readOnly.start();

const board = createBoardClient({
  ...config.board,
  redis,
  redisPrefix: config.redis.prefix,
  maxSlotWaitMs: config.thumbs.boardMaxWaitMs,
  logger,
});

// The same repository settings as the app's, so recorded durations feed its estimates.
const durations = new JobDurationRepository(redis, queue, {
  redisPrefix: config.redis.prefix,
  samples: config.thumbs.durationSamples,
  defaultMs: config.thumbs.defaultJobMs,
});
const events = startDurationRecorder({
  connection: eventsConnection,
  queuePrefix,
  queue,
  durations,
  onError: (error) => logger.warn('could not record a job duration', { error }),
});

const app = createApp({
  config,
  logger,
  redis,
  apiKeys: new ApiKeyRepository(authDataSource),
  readOnly,
  queue,
  posts: boardPostResolver(board, (error) => error instanceof BoardUnavailableError),
});

const { server, port } = await listen(app, config.ports.thumbs);
logger.info('thumbs API listening', { port, url: config.urls.thumbs });

installGracefulShutdown({
  servers: [server],
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  closers: [
    () => Promise.resolve(readOnly.stop()),
    () => events.close(),
    () => queue.close(),
    () => authDataSource.destroy(),
    () => redis.quit(),
    () => queueConnection.quit(),
    () => eventsConnection.quit(),
  ],
});
