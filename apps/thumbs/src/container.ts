import type { RedisClient } from '@pawlink/service-kit/redis';
import type { ThumbsConfig } from './config.js';
import { AdminSessionRepository } from './repositories/admin-session.repository.js';
import { JobDurationRepository } from './repositories/job-duration.repository.js';
import { PostRepository, type BoardLookup } from './repositories/post.repository.js';
import { ThumbnailFileRepository } from './repositories/thumbnail-file.repository.js';
import { ThumbnailQueueRepository, type ThumbnailQueue } from './repositories/thumbnail-queue.repository.js';
import { AdminSessionService, type AdminKeyLookup } from './services/admin-session.service.js';
import { ThumbnailQueueAdminService } from './services/thumbnail-queue-admin.service.js';
import { ThumbnailService } from './services/thumbnail.service.js';

export interface ThumbsConnections {
  config: ThumbsConfig;
  /** Plain connection: replace locks, the queue's wait list, job durations. */
  redis: RedisClient;
  /** From `openThumbnailQueue`. */
  queue: ThumbnailQueue;
  /** The board client (`createBoardClient`), for post ids. */
  board: BoardLookup;
  /** API keys (`ApiKeyRepository` of @pawlink/auth), for the admin pages. */
  apiKeys: AdminKeyLookup;
  /** What the service takes for now (tests move it forward). */
  clock?: () => number;
}

export interface ThumbsContainer {
  thumbnails: ThumbnailService;
  /** What the duration recorder feeds, so recorded durations reach the estimates. */
  durations: JobDurationRepository;
  queueAdmin: ThumbnailQueueAdminService;
  /** Who may use the queue dashboard, and their sessions. */
  admin: AdminSessionService;
}

/** The thumbs API's repositories and services, wired the one way main.ts and the tests share. */
export function createThumbsContainer(connections: ThumbsConnections): ThumbsContainer {
  const { config, redis, queue } = connections;
  const queueRepository = new ThumbnailQueueRepository(queue, redis, { redisPrefix: config.redis.prefix });
  const durations = new JobDurationRepository(redis, queue, {
    redisPrefix: config.redis.prefix,
    samples: config.thumbs.durationSamples,
    defaultMs: config.thumbs.defaultJobMs,
  });
  const thumbnails = new ThumbnailService({
    files: new ThumbnailFileRepository(config.mediaDir),
    queue: queueRepository,
    durations,
    posts: new PostRepository(connections.board, { perKey: config.thumbs.boardSharePerKey, perIp: config.thumbs.boardSharePerIp }),
    urls: { media: config.urls.media, thumbs: config.urls.thumbs },
    jobs: {
      attempts: config.thumbs.jobAttempts,
      keepCompletedSeconds: config.thumbs.completedTtlSeconds,
      keepFailedSeconds: config.thumbs.failedTtlSeconds,
    },
    clock: connections.clock ?? Date.now,
  });
  const adminSessions = new AdminSessionRepository(redis, { redisPrefix: config.redis.prefix, ttlSeconds: config.thumbs.adminSessionTtlSeconds });
  return { thumbnails, durations, queueAdmin: new ThumbnailQueueAdminService(queueRepository), admin: new AdminSessionService(connections.apiKeys, adminSessions) };
}

/**
 * The operator's view of the queue alone (`bin/admin queue`), which needs neither the board nor
 * the thumbs settings. `redis` may be the queue's own connection.
 */
export function createThumbsQueueAdmin(queue: ThumbnailQueue, redis: RedisClient, redisPrefix: string): ThumbnailQueueAdminService {
  return new ThumbnailQueueAdminService(new ThumbnailQueueRepository(queue, redis, { redisPrefix }));
}
