import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { BoardUnavailableError, createBoardClient } from '@pawlink/board';
import { startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { THUMBNAIL_QUEUE, thumbnailQueuePrefix, type ApiKeyFlag, type ThumbnailJobPayload, type ThumbnailType } from '@pawlink/contracts';
import { createDataSource, createLogger, createRedis, migrateDatabase, ReadOnlySwitch, setReadOnly } from '@pawlink/service-kit';
import { createTestContext, serveForTest, type TestContext } from '@pawlink/test-kit';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createApp } from '../src/app.js';
import { loadThumbsConfig, type ThumbsConfig } from '../src/config.js';
import { boardPostResolver } from '../src/thumbnails/post-resolver.js';

export const THUMBS_URL = 'http://thumbs.test';
export const MEDIA_URL = 'http://media.test/thumbs';

export interface ThumbsHarness {
  ctx: TestContext;
  config: ThumbsConfig;
  board: FakeBoard;
  url: string;
  redis: Redis;
  queue: Queue<ThumbnailJobPayload>;
  readOnly: ReadOnlySwitch;
  /** Unlimited key with the thumbs flag. */
  key: string;
  keyWithoutFlag: string;
  /** `Authorization` header for `key`. */
  auth: Record<string, string>;
  newKey(flags: ApiKeyFlag[], limits?: { rateLimitRoute?: number; rateLimitGlobal?: number }): Promise<string>;
  writeThumbnail(md5: string, type: ThumbnailType): Promise<void>;
  setReadOnly(on: boolean): Promise<void>;
  /** A BullMQ worker on this harness's queue, as the real worker would run (not the real worker). */
  startWorker(processor: (job: Job<ThumbnailJobPayload>) => Promise<unknown>, options?: { name?: string; concurrency?: number }): Worker<ThumbnailJobPayload>;
  /** `makeQueue` lets a test wrap the instance's BullMQ queue (e.g. to widen a race window). */
  startAnotherInstance(makeQueue?: MakeQueue): Promise<string>;
  /** Moves the clock the app sees forward. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

export type MakeQueue = (connection: Redis, prefix: string) => Queue<ThumbnailJobPayload>;

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
  const newKey = async (flags: ApiKeyFlag[], limits: { rateLimitRoute?: number; rateLimitGlobal?: number } = {}) =>
    (await apiKeys.create({ name: 'test', contact: 'test@example.com', flags, rateLimitRoute: 0, rateLimitGlobal: 0, ...limits })).key;
  const key = await newKey(['thumbs']);
  const keyWithoutFlag = await newKey(['shortener']);

  const redis = createRedis(config.redis);
  const queueConnection = createRedis(config.redis, { forQueue: true });
  const prefix = thumbnailQueuePrefix(config.redis.prefix);
  const queue = new Queue<ThumbnailJobPayload>(THUMBNAIL_QUEUE, { connection: queueConnection, prefix });
  const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'thumbs', false);
  await readOnly.refresh();
  const logger = createLogger('thumbs-test', 'error', { silent: process.env.TEST_LOG !== '1' });
  const boardClient = createBoardClient({
    ...config.board,
    redis,
    redisPrefix: config.redis.prefix,
    maxSlotWaitMs: config.thumbs.boardMaxWaitMs,
  });
  let clockOffset = 0;
  const app = createApp({
    config,
    logger,
    redis,
    apiKeys,
    readOnly,
    queue,
    posts: boardPostResolver(boardClient, (error) => error instanceof BoardUnavailableError),
    clock: () => Date.now() + clockOffset,
  });
  const server = await serveForTest(app);
  const workers: Worker[] = [];
  const extraInstances: Array<() => Promise<void>> = [];

  /** Another API instance: its own Redis connections, queue object and HTTP server, same Redis. */
  async function startAnotherInstance(makeQueue?: MakeQueue): Promise<string> {
    const otherRedis = createRedis(config.redis);
    const otherConnection = createRedis(config.redis, { forQueue: true });
    const otherQueue = makeQueue ? makeQueue(otherConnection, prefix) : new Queue<ThumbnailJobPayload>(THUMBNAIL_QUEUE, { connection: otherConnection, prefix });
    const otherReadOnly = new ReadOnlySwitch(otherRedis, config.redis.prefix, 'thumbs', false);
    await otherReadOnly.refresh();
    const other = await serveForTest(
      createApp({ config, logger, redis: otherRedis, apiKeys, readOnly: otherReadOnly, queue: otherQueue, posts: boardPostResolver(boardClient, (error) => error instanceof BoardUnavailableError) }),
    );
    extraInstances.push(async () => {
      await other.close();
      await otherQueue.close();
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
    async writeThumbnail(md5, type) {
      await mkdir(path.join(ctx.mediaDir, 'thumbs'), { recursive: true });
      await writeFile(path.join(ctx.mediaDir, 'thumbs', `${md5}.${type}`), Buffer.from(type === 'gif' ? 'GIF89a' : '\x89PNG'));
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
      await queue.close();
      queueConnection.disconnect();
      redis.disconnect();
      await authDataSource.destroy();
      await board.close();
      await ctx.cleanup();
    },
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
