import { createBoardClient } from '@pawlink/board';
import { thumbnailQueuePrefix } from '@pawlink/contracts';
import { logUnlessUnavailable, type Logger } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { ThumbsConfig } from './config.js';
import { AdminSessionRepository } from './repositories/admin-session.repository.js';
import { CallbackAddressRepository } from './repositories/callback-address.repository.js';
import { openCallbackQueue, type CallbackQueue } from './repositories/callback-queue.repository.js';
import { JobDurationRecorder, JobDurationRepository } from './repositories/job-duration.repository.js';
import { PostRepository } from './repositories/post.repository.js';
import { ThumbnailCallbackRepository } from './repositories/thumbnail-callback.repository.js';
import { ThumbnailFileRepository } from './repositories/thumbnail-file.repository.js';
import {
  openThumbnailQueue,
  ThumbnailQueueRepository,
  type ThumbnailQueue,
} from './repositories/thumbnail-queue.repository.js';
import { AdminLoginService } from './services/admin-login.service.js';
import { AdminLogoutService } from './services/admin-logout.service.js';
import { AdminSessionService, type AdminKeyLookup } from './services/admin-session.service.js';
import { CheckThumbnailService } from './services/check-thumbnail.service.js';
import { CreateThumbnailService } from './services/create-thumbnail.service.js';
import { GetThumbnailInfoService } from './services/get-thumbnail-info.service.js';
import { ThumbnailQueueAdminService } from './services/thumbnail-queue-admin.service.js';

export interface ThumbsConnections {
  config: ThumbsConfig;
  logger: Logger;
  /** Plain connection: replace locks, the queue's wait list, job durations, the board's cache and rate limiter. */
  redis: RedisClient;
  /** The queue's own connection. The API only adds and reads jobs (no blocking commands): it may fail fast too. */
  queueRedis: RedisClient;
  /** Opens the duration recorder's blocking connection (made for BullMQ), when the recorder starts. */
  eventsRedis: () => RedisClient;
  /** API keys (`ApiKeyRepository` of @pawlink/auth), for the admin pages. */
  apiKeys: AdminKeyLookup;
  /** Replaces the queue opened on `queueRedis` (a test wraps one to widen a race window). */
  queue?: ThumbnailQueue;
  /** What the services take for now (tests move it forward). */
  clock?: () => number;
}

export interface ThumbsContainer {
  /** The thumbnail queue: the services add and read its jobs, the dashboard shows it. */
  queue: ThumbnailQueue;
  /** The worker's callback deliveries: only the dashboard shows it. */
  callbackQueue: CallbackQueue;
  thumbnailInfo: GetThumbnailInfoService;
  createThumbnail: CreateThumbnailService;
  checkThumbnail: CheckThumbnailService;
  /** Records how long the jobs any worker finishes took; main.ts starts and closes it. */
  durationRecorder: JobDurationRecorder;
  queueAdmin: ThumbnailQueueAdminService;
  /** Who may use the queue dashboard, and their sessions. */
  adminLogin: AdminLoginService;
  adminLogout: AdminLogoutService;
  adminSessions: AdminSessionService;
  /** Closes the queue; the connections stay open for whoever opened them. */
  close(): Promise<void>;
}

/** The thumbs API's repositories and services, wired the one way main.ts and the tests share. */
export function createThumbsContainer(connections: ThumbsConnections): ThumbsContainer {
  const { config, logger, redis } = connections;
  const settings = config.thumbs;
  const queue = connections.queue ?? openThumbnailQueue(connections.queueRedis, config.redis.prefix);
  queue.on('error', logUnlessUnavailable(logger, 'thumbnail queue error'));
  const callbackQueue = openCallbackQueue(connections.queueRedis, config.redis.prefix);
  callbackQueue.on('error', logUnlessUnavailable(logger, 'callback queue error'));
  const board = createBoardClient({
    ...config.board,
    redis,
    redisPrefix: config.redis.prefix,
    maxSlotWaitMs: settings.boardMaxWaitMs,
    logger,
  });

  const clock = connections.clock ?? Date.now;
  // One queue repository for every operation: its snapshot of the wait list serves every check and PUT.
  const queueRepository = new ThumbnailQueueRepository(queue, redis, { redisPrefix: config.redis.prefix, clock });
  const durations = new JobDurationRepository(redis, queue, {
    redisPrefix: config.redis.prefix,
    samples: settings.durationSamples,
    defaultMs: settings.defaultJobMs,
  });
  const files = new ThumbnailFileRepository(config.mediaDir);
  const posts = new PostRepository(board, { perKey: settings.boardSharePerKey, perIp: settings.boardSharePerIp });
  const urls = { media: config.urls.media, thumbs: config.urls.thumbs };
  const jobs = {
    attempts: settings.jobAttempts,
    keepCompletedSeconds: settings.completedTtlSeconds,
    keepFailedSeconds: settings.failedTtlSeconds,
  };
  const sessions = new AdminSessionRepository(redis, {
    redisPrefix: config.redis.prefix,
    ttlSeconds: settings.adminSessionTtlSeconds,
  });
  return {
    queue,
    callbackQueue,
    thumbnailInfo: new GetThumbnailInfoService({ files, posts, urls }),
    createThumbnail: new CreateThumbnailService({
      files,
      queue: queueRepository,
      durations,
      posts,
      callbacks: new ThumbnailCallbackRepository(redis, config.redis.prefix),
      callbackAddresses: new CallbackAddressRepository(settings.callbackPrivateHosts),
      urls,
      jobs,
      clock,
    }),
    checkThumbnail: new CheckThumbnailService({ files, queue: queueRepository, durations, urls, jobs, clock }),
    // Durations of jobs finished by any worker feed every instance's estimates.
    durationRecorder: new JobDurationRecorder({
      connect: connections.eventsRedis,
      queuePrefix: thumbnailQueuePrefix(config.redis.prefix),
      queue,
      durations,
      onError: logUnlessUnavailable(logger, 'could not record a job duration'),
      onWaitListChange: () => queueRepository.queueChanged(),
    }),
    queueAdmin: new ThumbnailQueueAdminService(queueRepository),
    adminLogin: new AdminLoginService(sessions),
    adminLogout: new AdminLogoutService(sessions),
    adminSessions: new AdminSessionService(connections.apiKeys, sessions),
    close: async () => {
      await Promise.all([queue.close(), callbackQueue.close()]);
    },
  };
}

/**
 * The operator's view of the queue alone (`bin/admin queue`), which needs neither the board nor
 * the thumbs settings. `connection` is made for BullMQ and also serves the plain reads; it stays
 * open when `close()` closes the queue.
 */
export function openThumbsQueueAdmin(
  connection: RedisClient,
  redisPrefix: string,
): { queueAdmin: ThumbnailQueueAdminService; close(): Promise<void> } {
  const queue = openThumbnailQueue(connection, redisPrefix);
  return {
    queueAdmin: new ThumbnailQueueAdminService(new ThumbnailQueueRepository(queue, connection, { redisPrefix })),
    close: () => queue.close(),
  };
}
