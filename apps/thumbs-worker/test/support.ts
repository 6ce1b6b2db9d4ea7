import { startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import {
  thumbnailJobId,
  thumbnailQueuePrefix,
  thumbnailsDir,
  THUMBNAIL_JOB,
  THUMBNAIL_QUEUE,
  type ThumbnailJobPayload,
  type ThumbnailJobResult,
  type ThumbnailType,
} from '@pawlink/contracts';
import { createLogger, createRedis } from '@pawlink/service-kit';
import { createTestContext, serveForTest, type TestContext } from '@pawlink/test-kit';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import {
  createThumbnailWorker,
  loadThumbsWorkerConfig,
  type ThumbnailWorker,
  type ThumbsWorkerConfig,
} from '../src/index.js';

export type ThumbnailQueue = Queue<ThumbnailJobPayload, ThumbnailJobResult>;
export type ThumbnailJob = Job<ThumbnailJobPayload, ThumbnailJobResult>;

export const redisUrl = (ctx: TestContext): string => ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Environment for a worker pointed at this test's prefix, media dir and fake board. */
export function workerEnv(
  ctx: TestContext,
  board: FakeBoard,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    ...ctx.env,
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_USER_AGENT: 'PawlinkTest/1.0 (thumbs-worker tests)',
    BOARD_RETRIES: '1',
    // the fake board listens on loopback: the one host allowed at a private address
    THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(board.staticUrl).host,
    WORKER_LOCK_DURATION_MS: '5000',
    WORKER_STALLED_INTERVAL_MS: '2000',
    LOG_LEVEL: 'error',
    ...overrides,
  };
}

export const workerConfig = (
  ctx: TestContext,
  board: FakeBoard,
  overrides: Record<string, string> = {},
): ThumbsWorkerConfig => loadThumbsWorkerConfig(workerEnv(ctx, board, overrides));

export function createQueue(ctx: TestContext): { queue: ThumbnailQueue; connection: Redis } {
  const connection = new Redis(redisUrl(ctx), { maxRetriesPerRequest: null });
  const queue: ThumbnailQueue = new Queue(THUMBNAIL_QUEUE, {
    connection,
    prefix: thumbnailQueuePrefix(ctx.redisPrefix),
  });
  return { queue, connection };
}

/** Enqueues the way the thumbs API does: deterministic id, a few attempts for recoverable failures. */
export function enqueue(queue: ThumbnailQueue, md5: string, type: ThumbnailType): Promise<ThumbnailJob> {
  return queue.add(
    THUMBNAIL_JOB,
    { md5, type, requestedAt: Date.now() },
    { jobId: thumbnailJobId(md5, type), attempts: 3, backoff: { type: 'fixed', delay: 200 } },
  );
}

/** Polls until the job completes or fails for good. */
export async function waitForJob(queue: ThumbnailQueue, jobId: string, timeoutMs = 60_000): Promise<ThumbnailJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // state first: once it is final, the job read after it is final too
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await queue.getJob(jobId);
      if (job) return job;
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface HarnessOptions {
  /** Worker variables over the test defaults (see workerEnv); a function when they name the fake board. */
  env?: Record<string, string> | ((board: FakeBoard) => Record<string, string>);
  /**
   * In-process workers to start, by name (`undefined`: the production name, host:pid:concurrency).
   * Default one; none for tests that run the built process instead.
   */
  workers?: Array<string | undefined>;
}

/** A queue, a fake board and thumbnail workers on a test context of their own. */
export interface WorkerHarness {
  ctx: TestContext;
  board: FakeBoard;
  config: ThumbsWorkerConfig;
  /** Where the workers publish thumbnails (contracts' `thumbnailsDir(MEDIA_DIR)`). */
  thumbsDir: string;
  queue: ThumbnailQueue;
  workers: ThumbnailWorker[];
  /** Enqueues a job as the API does and waits until it completes or fails for good. */
  run(md5: string, type: ThumbnailType): Promise<ThumbnailJob>;
  /** Closes the workers, the queue and the board, and drops the context. */
  close(): Promise<void>;
}

/**
 * Starts what a worker test needs: a test context (`label` names its Redis prefix and media
 * dir), a fake board, the worker configuration, a queue with its own connection, and the
 * workers, each on its own queue connection as in production. A setup that fails half-way closes
 * what it opened.
 */
export async function startWorkerHarness(label: string, options: HarnessOptions = {}): Promise<WorkerHarness> {
  const closers: Array<() => Promise<unknown> | void> = [];
  const close = async (): Promise<void> => {
    for (const closeOne of closers.splice(0).reverse()) await closeOne();
  };
  try {
    const ctx = await createTestContext(label);
    closers.push(() => ctx.cleanup());
    const board = await startFakeBoard();
    closers.push(() => board.close());
    const config = workerConfig(ctx, board, typeof options.env === 'function' ? options.env(board) : options.env);
    const { queue, connection } = createQueue(ctx);
    closers.push(
      () => connection.disconnect(),
      () => queue.close(),
    );
    const logger = createLogger('thumbs-worker', 'error', { silent: true });
    const workers: ThumbnailWorker[] = [];
    for (const name of options.workers ?? [undefined]) {
      const workerConnection = createRedis(config.redis, { forQueue: true });
      closers.push(() => workerConnection.disconnect());
      const worker = createThumbnailWorker(config, workerConnection, logger, { name });
      closers.push(() => worker.close());
      workers.push(worker);
    }
    return {
      ctx,
      board,
      config,
      queue,
      workers,
      close,
      thumbsDir: thumbnailsDir(config.mediaDir),
      async run(md5, type) {
        await enqueue(queue, md5, type);
        return waitForJob(queue, thumbnailJobId(md5, type));
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A server that must never be reached: it counts what arrives and answers a file-like 200. */
export interface Trap {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

/** Starts a Trap on a free loopback port. */
export async function startTrap(): Promise<Trap> {
  const hits: string[] = [];
  const server = await serveForTest((req, res) => {
    hits.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end('secret internal answer');
  });
  return { url: server.url, port: server.port, hits, close: () => server.close() };
}

/** JSON log lines as they are printed, by whoever prints them (worker threads' logs arrive on this process's stdout). */
export interface CapturedLogs {
  lines: Array<Record<string, unknown>>;
  /** Polls until a line matches, for up to `timeoutMs` (thread output arrives a little later than the job's state). */
  waitFor(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Gives stdout back. */
  stop(): void;
}

/** Takes over this process's stdout and keeps its JSON lines (other output is printed as usual). */
export function captureLogLines(): CapturedLogs {
  const lines: Array<Record<string, unknown>> = [];
  const original = process.stdout.write.bind(process.stdout);
  let partial = '';
  const capture = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    partial += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    const other: string[] = [];
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        other.push(line);
      }
    }
    if (other.length > 0) return original(`${other.join('\n')}\n`, ...(rest as []));
    return true;
  };
  process.stdout.write = capture;
  return {
    lines,
    async waitFor(match, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no log line matched among ${lines.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop() {
      process.stdout.write = original;
    },
  };
}
