import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyRepository, authDatabase, createAccessGuards } from '@pawlink/auth';
import { createTestKey } from '@pawlink/auth/testing';
import { startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import {
  THUMBNAIL_QUEUE,
  thumbnailFileName,
  thumbnailQueuePrefix,
  thumbnailsDir,
  type ApiKeyFlag,
  type ThumbnailJobPayload,
  type ThumbnailType,
} from '@pawlink/contracts';
import {
  createDataSource,
  createLogger,
  createRedis,
  failFastRedis,
  migrateDatabase,
  ReadOnlySwitch,
  setReadOnly,
  type Logger,
} from '@pawlink/service-kit';
import { createTestContext, serveForTest, type TestContext } from '@pawlink/test-kit';
import { Worker, type Job, type Queue } from 'bullmq';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { createApp } from '../src/app.js';
import { loadThumbsConfig, type ThumbsConfig } from '../src/config.js';
import { createThumbsContainer, type ThumbsContainer } from '../src/container.js';
import { thumbsOpenApi } from '../src/openapi.js';

export const THUMBS_URL = 'http://thumbs.test';
export const MEDIA_URL = 'http://media.test/thumbs';

export interface ThumbsHarness {
  ctx: TestContext;
  config: ThumbsConfig;
  board: FakeBoard;
  url: string;
  redis: RedisClient;
  queue: Queue<ThumbnailJobPayload>;
  readOnly: ReadOnlySwitch;
  /** Unlimited key with the thumbs flag. */
  key: string;
  keyWithoutFlag: string;
  /** `Authorization` header for `key`. */
  auth: Record<string, string>;
  newKey(flags: ApiKeyFlag[], limits?: { rateLimitRoute?: number; rateLimitGlobal?: number }): Promise<string>;
  /** The keys' table, to revoke or disable one. */
  apiKeys: ApiKeyRepository;
  writeThumbnail(md5: string, type: ThumbnailType): Promise<void>;
  setReadOnly(on: boolean): Promise<void>;
  /** A BullMQ worker on this harness's queue, as the real worker would run (not the real worker). */
  startWorker(
    processor: (job: Job<ThumbnailJobPayload>) => Promise<unknown>,
    options?: { name?: string; concurrency?: number },
  ): Worker<ThumbnailJobPayload>;
  /** `makeQueue` lets a test wrap the instance's BullMQ queue (e.g. to widen a race window). */
  /** `adaptRedis` may wrap commands of the instance's plain connection (the one its repositories read jobs with). */
  startAnotherInstance(makeQueue?: MakeQueue, adaptRedis?: (redis: RedisClient) => void): Promise<string>;
  /** Moves the clock the app sees forward. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

export type MakeQueue = (connection: RedisClient, prefix: string) => Queue<ThumbnailJobPayload>;

/** The thumbs API against real Redis/MariaDB, a fake board and a temp MEDIA_DIR. */
export async function startThumbs(env: Record<string, string> = {}): Promise<ThumbsHarness> {
  const ctx = await createTestContext('thumbs');
  const board = await startFakeBoard();
  const config = loadThumbsConfig({
    ...ctx.env,
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_REQUESTS_PER_SECOND: '50',
    BOARD_RETRIES: '0',
    BOARD_TIMEOUT_MS: '3000',
    THUMBS_URL,
    MEDIA_URL,
    ...env,
  });
  await migrateDatabase(config.database, authDatabase);
  const authDataSource = createDataSource(config.database, { ...authDatabase, poolSize: 2 });
  await authDataSource.initialize();
  const apiKeys = new ApiKeyRepository(authDataSource);
  const newKey = (flags: ApiKeyFlag[], limits: { rateLimitRoute?: number; rateLimitGlobal?: number } = {}) =>
    createTestKey(apiKeys, flags, limits);
  const key = await newKey(['thumbs']);
  const keyWithoutFlag = await newKey(['shortener']);

  // The connections of the thumbs process (main.ts): the API's queue connection fails fast too.
  const failFast = failFastRedis(config.dependencyTimeouts);
  const redis = createRedis(config.redis, { failFast });
  const queueConnection = createRedis(config.redis, { failFast });
  const prefix = thumbnailQueuePrefix(config.redis.prefix);
  const logger = createLogger('thumbs-test', 'error', { silent: process.env.TEST_LOG !== '1' });
  let clockOffset = 0;
  const clock = () => Date.now() + clockOffset;
  const { app, readOnly, services } = await buildInstance({ config, logger, apiKeys, redis, queueConnection, clock });
  const { queue } = services;
  const server = await serveForTest(app, { contract: thumbsOpenApi });
  const workers: Worker[] = [];
  const extraInstances: Array<() => Promise<void>> = [];

  /** Another API instance: its own Redis connections, queue object and HTTP server, same Redis. */
  async function startAnotherInstance(
    makeQueue?: MakeQueue,
    adaptRedis?: (redis: RedisClient) => void,
  ): Promise<string> {
    const otherRedis = createRedis(config.redis, { failFast });
    adaptRedis?.(otherRedis);
    const otherConnection = createRedis(config.redis, { failFast });
    const instance = await buildInstance({
      config,
      logger,
      apiKeys,
      redis: otherRedis,
      queueConnection: otherConnection,
      ...(makeQueue ? { queue: makeQueue(otherConnection, prefix) } : {}),
    });
    const other = await serveForTest(instance.app, { contract: thumbsOpenApi });
    extraInstances.push(async () => {
      await other.close();
      await instance.services.close();
      otherConnection.disconnect();
      otherRedis.disconnect();
    });
    return other.url;
  }

  return {
    ctx,
    config,
    board,
    url: server.url,
    redis,
    queue,
    readOnly,
    key,
    keyWithoutFlag,
    auth: { authorization: key },
    newKey,
    apiKeys,
    async writeThumbnail(md5, type) {
      await mkdir(thumbnailsDir(ctx.mediaDir), { recursive: true });
      await writeFile(
        path.join(thumbnailsDir(ctx.mediaDir), thumbnailFileName(md5, type)),
        Buffer.from({ gif: 'GIF89a', png: '\x89PNG', webp: 'RIFF\0\0\0\0WEBP', mp4: '\0\0\0\x18ftypisom' }[type]),
      );
    },
    async setReadOnly(on) {
      await setReadOnly(redis, config.redis.prefix, ['thumbs'], on);
      await readOnly.refresh();
    },
    startWorker(processor, options = {}) {
      const worker = new Worker<ThumbnailJobPayload>(THUMBNAIL_QUEUE, processor, {
        connection: createRedis(config.redis, { forQueue: true }),
        prefix,
        concurrency: options.concurrency ?? 1,
        ...(options.name !== undefined ? { name: options.name } : {}),
      });
      worker.on('error', () => undefined);
      workers.push(worker);
      return worker;
    },
    startAnotherInstance,
    advanceClock(ms) {
      clockOffset += ms;
    },
    async close() {
      await server.close();
      for (const close of extraInstances) await close();
      for (const worker of workers) await worker.close(true);
      await services.close();
      queueConnection.disconnect();
      redis.disconnect();
      await authDataSource.destroy();
      await board.close();
      await ctx.cleanup();
    },
  };
}

/**
 * One API instance as main.ts wires it: container, guards and read-only switch over the given
 * connections (`queue` replaces the one the container opens). The tests start no duration
 * recorder; they record durations themselves.
 */
async function buildInstance(options: {
  config: ThumbsConfig;
  logger: Logger;
  apiKeys: ApiKeyRepository;
  redis: RedisClient;
  queueConnection: RedisClient;
  queue?: Queue<ThumbnailJobPayload>;
  clock?: () => number;
}): Promise<{ app: ReturnType<typeof createApp>; readOnly: ReadOnlySwitch; services: ThumbsContainer }> {
  const { config, logger, redis } = options;
  const services = createThumbsContainer({
    config,
    logger,
    redis,
    queueRedis: options.queueConnection,
    eventsRedis: () => {
      throw new Error('the tests start no duration recorder');
    },
    apiKeys: options.apiKeys,
    ...(options.queue ? { queue: options.queue } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'thumbs', false);
  await readOnly.refresh();
  const guards = createAccessGuards({
    service: 'thumbs',
    apiKeys: options.apiKeys,
    redis,
    redisPrefix: config.redis.prefix,
    logger,
  });
  return {
    app: createApp({
      config,
      logger,
      services,
      queue: services.queue,
      callbackQueue: services.callbackQueue,
      guards,
      readOnly,
    }),
    readOnly,
    services,
  };
}

/** Polls until `check` returns a value other than undefined (or fails after `timeoutMs`). */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await sleep(25);
  }
}

/** An md5 made for one test (unique per call). */
export function md5For(label: string): string {
  return createHash('md5').update(`${label}:${Math.random()}`).digest('hex');
}
