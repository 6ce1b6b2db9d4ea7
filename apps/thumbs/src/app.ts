import { createAccessGuards, type ApiKeyRepository } from '@pawlink/auth';
import { createServiceApp, type HttpMetrics, type Logger, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { ThumbsConfig } from './config.js';
import { registerThumbsRoutes } from './routes/thumbs.routes.js';
import { JobDurationRepository } from './thumbnails/job-duration.repository.js';
import type { PostResolver } from './thumbnails/post-resolver.js';
import { ThumbnailFileRepository } from './thumbnails/thumbnail-file.repository.js';
import { ThumbnailQueueRepository, type ThumbnailQueue } from './thumbnails/thumbnail-queue.repository.js';
import { ThumbnailService } from './thumbnails/thumbnail.service.js';

export interface ThumbsAppDeps {
  config: ThumbsConfig;
  logger: Logger;
  /** Plain connection: rate limits, durations, locks. */
  redis: Redis;
  apiKeys: ApiKeyRepository;
  readOnly: ReadOnlySwitch;
  /** BullMQ queue `THUMBNAIL_QUEUE` under `thumbnailQueuePrefix(REDIS_PREFIX)`. */
  queue: ThumbnailQueue;
  posts: PostResolver;
  clock?: () => number;
  metrics?: HttpMetrics;
}

/** The thumbs HTTP API (API.md §4). Never listens; never renders anything itself. */
export function createApp(deps: ThumbsAppDeps): Express {
  const { config } = deps;
  const clock = deps.clock ?? Date.now;
  const service = createServiceApp({
    service: 'thumbs',
    logger: deps.logger,
    readOnly: deps.readOnly,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
  const thumbnails = new ThumbnailService({
    files: new ThumbnailFileRepository(config.mediaDir),
    queue: new ThumbnailQueueRepository(deps.queue, deps.redis, {
      redisPrefix: config.redis.prefix,
      completedTtlSeconds: config.thumbs.completedTtlSeconds,
      failedTtlSeconds: config.thumbs.failedTtlSeconds,
      attempts: config.thumbs.jobAttempts,
    }),
    durations: new JobDurationRepository(deps.redis, deps.queue, {
      redisPrefix: config.redis.prefix,
      samples: config.thumbs.durationSamples,
      defaultMs: config.thumbs.defaultJobMs,
    }),
    urls: { media: config.urls.media, thumbs: config.urls.thumbs },
    failedTtlMs: config.thumbs.failedTtlSeconds * 1000,
    clock,
  });
  registerThumbsRoutes(service.app, {
    guards: createAccessGuards({ service: 'thumbs', apiKeys: deps.apiKeys, redis: deps.redis, redisPrefix: config.redis.prefix, logger: deps.logger }),
    readOnly: deps.readOnly,
    thumbnails,
    posts: deps.posts,
  });
  return service.finalize();
}
