import { spawn, type ChildProcess } from 'node:child_process';
import { rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { THUMBNAIL_QUEUE, thumbnailJobId, thumbnailQueuePrefix, thumbnailsDir } from '@pawlink/contracts';
import { createTestContext, freePort, request, type JsonResponse, type TestContext } from '@pawlink/test-kit';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateRedis, type PrivateRedis } from './private-redis.js';
import { enqueue, waitForJob, workerEnv, type ThumbnailQueue } from './support.js';

/*
 * The built worker process against a Redis of this test's own, which the test kills, restarts,
 * pauses and resumes: /ready must tell the truth each time, the process must recover alone, and
 * everything it prints must be JSON, a lost connection logged once when it goes and once when it
 * is back.
 */

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

let ctx: TestContext;
let board: FakeBoard;
let redis: PrivateRedis;
let queueConnection: Redis;
let queue: ThumbnailQueue;
let worker: ChildProcess;
let output = '';
let healthUrl: string;

const exited = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/** Polls `url` until `done` holds for its answer; every answer must come within `answerWithinMs`. */
async function pollUntil(
  url: string,
  done: (res: JsonResponse) => boolean,
  answerWithinMs = 3000,
  timeoutMs = 20_000,
): Promise<{ res: JsonResponse; afterMs: number; slowestMs: number }> {
  const started = Date.now();
  let slowestMs = 0;
  for (;;) {
    const asked = Date.now();
    const res = await request(url, { signal: AbortSignal.timeout(answerWithinMs) });
    slowestMs = Math.max(slowestMs, Date.now() - asked);
    if (done(res)) return { res, afterMs: Date.now() - started, slowestMs };
    if (Date.now() - started > timeoutMs) throw new Error(`${url} still answers ${res.status} ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met; the worker printed:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every line printed so far, parsed; throws on the first one that is not JSON. */
function printedLines(): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

const count = (message: string, connection?: string): number =>
  printedLines().filter(
    (line) => line.message === message && (connection === undefined || line.connection === connection),
  ).length;

beforeAll(async () => {
  ctx = await createTestContext('thumbshealth');
  board = await startFakeBoard();
  redis = await privateRedis();
  await redis.start();
  const healthPort = await freePort();
  healthUrl = `http://127.0.0.1:${healthPort}`;
  const env = workerEnv(ctx, board, {
    REDIS_URL: redis.url,
    WORKER_HEALTH_PORT: String(healthPort),
    LOG_LEVEL: 'info',
  });
  worker = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  worker.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  queueConnection = new Redis(redis.url, { maxRetriesPerRequest: null });
  queueConnection.on('error', () => undefined);
  queue = new Queue(THUMBNAIL_QUEUE, { connection: queueConnection, prefix: thumbnailQueuePrefix(ctx.redisPrefix) });
  // this test's own queue sees the outages too; they are not what is tested
  queue.on('error', () => undefined);
  const deadline = Date.now() + 30_000;
  while (!output.includes('"thumbs worker started"')) {
    if (worker.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) {
    worker.kill('SIGKILL');
    await exited(worker);
  }
  await queue?.close();
  queueConnection?.disconnect();
  await redis?.close();
  await board?.close();
  await ctx?.cleanup();
});

describe("the worker's health server (WORKER_HEALTH_PORT)", () => {
  it('answers /online and /ready, and only those, with GET', async () => {
    const online = await request(`${healthUrl}/online`);
    expect(online.status).toBe(200);
    expect(online.body).toEqual({ success: true, uptime: expect.any(Number) });
    const ready = await request(`${healthUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ success: true, ready: true, checks: { redis: 'up', media: 'up' } });
    expect((await request(`${healthUrl}/metrics`)).body).toMatchObject({ success: false, code: 1024 });
    const post = await request(`${healthUrl}/ready`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('/ready answers 503 1004 naming the media directory while thumbnails cannot be written there', async () => {
    const dir = thumbnailsDir(ctx.mediaDir);
    await rename(dir, `${dir}.away`);
    // a file where the directory was: no write succeeds, whoever runs the test
    await writeFile(dir, 'not a directory');
    try {
      const res = await request(`${healthUrl}/ready`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        success: false,
        code: 1004,
        error: expect.any(String),
        checks: { redis: 'up', media: 'down' },
      });
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await rm(dir, { force: true });
      await rename(`${dir}.away`, dir);
    }
    expect((await request(`${healthUrl}/ready`)).status).toBe(200);
  });

  it('/ready says when Redis is gone or stalled, at once, and the worker recovers alone, logging only JSON, once per change of state', async () => {
    await redis.kill();
    const down = await pollUntil(`${healthUrl}/ready`, (res) => res.status === 503);
    expect(down.res.body).toMatchObject({ success: false, code: 1004, checks: { redis: 'down', media: 'up' } });
    expect((await request(`${healthUrl}/online`)).status).toBe(200);
    // long enough for many reconnect attempts of every connection
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await redis.start();
    const back = await pollUntil(`${healthUrl}/ready`, (res) => res.status === 200);
    process.stderr.write(
      `redis killed: /ready 503 after ${down.afterMs} ms; restarted: /ready 200 after ${back.afterMs} ms; slowest answer ${Math.max(down.slowestMs, back.slowestMs)} ms\n`,
    );
    expect(back.afterMs).toBeLessThan(10_000);

    // once when it went, once when it came back: per connection, and for the BullMQ worker
    await waitUntil(() => count('thumbnail worker reconnected to Redis') > 0);
    // each connection logs its own return, which may reach stdout after the worker's
    for (const connection of ['thumbs-worker', 'thumbs-worker-checks'])
      await waitUntil(() => count('redis connection restored', connection) > 0);
    for (const connection of ['thumbs-worker', 'thumbs-worker-checks']) {
      expect(
        [count('redis connection lost', connection), count('redis connection restored', connection)],
        connection,
      ).toEqual([1, 1]);
    }
    expect(count('thumbnail worker lost its Redis connection')).toBe(1);
    expect(count('thumbnail worker error')).toBe(0);

    // a stalled Redis: the port is open but nothing answers; the PING's timeout says "down"
    redis.pause();
    try {
      const stalled = await pollUntil(`${healthUrl}/ready`, (res) => res.status === 503);
      expect(stalled.res.body).toMatchObject({ checks: { redis: 'down', media: 'up' } });
      expect(stalled.slowestMs).toBeLessThan(3000);
    } finally {
      redis.resume();
    }
    await pollUntil(`${healthUrl}/ready`, (res) => res.status === 200);

    // the worker takes jobs again (the restarted Redis kept nothing)
    const post = board.addPost({ id: 1, ext: 'png' }, await makePng(40, 30));
    await enqueue(queue, post.md5, 'png');
    const job = await waitForJob(queue, thumbnailJobId(post.md5, 'png'), 30_000);
    expect(await job.getState()).toBe('completed');

    worker.kill('SIGTERM');
    expect(await exited(worker)).toEqual({ code: 0, signal: null });
    const lines = printedLines();
    expect(lines.every((line) => line.service === 'thumbs-worker')).toBe(true);
    expect(output).not.toContain('[ioredis]');
    for (const [lost, restored] of [
      ['redis connection lost', 'redis connection restored'],
      ['thumbnail worker lost its Redis connection', 'thumbnail worker reconnected to Redis'],
    ] as const) {
      expect(count(lost)).toBe(count(restored));
    }
  }, 90_000);
});
