import {
  createTestContext,
  request,
  serveForTest,
  startDependencyProxies,
  type DependencyProxies,
  type TcpProxy,
  type TestContext,
  type TestServer,
} from '@pawlink/test-kit';
import type { Request, Response } from 'express';
import type { RedisClient } from '../src/index.js';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  createServiceApp,
  createServiceRuntime,
  ensureDatabase,
  loadBaseConfig,
  type Closer,
  type ReadOnlySwitch,
} from '../src/index.js';

/*
 * A kit service whose MariaDB and Redis connections go through TCP proxies the test stalls (a
 * paused server) and cuts (a dead one), as the runtime builds them for every service process.
 * "Within about a second" is the behaviour asked for here: the bound checked is 3 s, against the
 * 10 s–minutes a request used to hang.
 */

let ctx: TestContext;
let proxies: DependencyProxies;
let db: TcpProxy;
let cache: TcpProxy;
let server: TestServer;
let closers: Closer[];
/** The test's own connection to the real MariaDB, which holds row locks a write then waits on. */
let lockHolder: mysql.Connection;
const logLines: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext('kit-faults');
  const real = loadBaseConfig(ctx.env);
  proxies = await startDependencyProxies(ctx.env);
  ({ db, redis: cache } = proxies);
  const config = loadBaseConfig({
    ...proxies.env,
    DB_QUERY_TIMEOUT_MS: '500',
    DB_CONNECT_TIMEOUT_MS: '500',
    REDIS_COMMAND_TIMEOUT_MS: '300',
    REDIS_CONNECT_TIMEOUT_MS: '300',
  });
  const kitDatabase = await ensureDatabase(real.database, 'kit');
  lockHolder = await mysql.createConnection({
    host: real.database.host,
    port: real.database.port,
    user: real.database.user,
    password: real.database.password,
    database: kitDatabase,
  });
  await lockHolder.query('CREATE TABLE IF NOT EXISTS kit_writes (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB');
  await lockHolder.query('INSERT IGNORE INTO kit_writes VALUES (1, 0)');
  const { Writable } = await import('node:stream');
  const logger = createLogger('images', 'info', {
    stream: new Writable({ write: (chunk: Buffer, _e, done) => (logLines.push(chunk.toString()), done()) }),
  });
  const opened = createServiceRuntime(config, logger);
  closers = opened.closers;
  const redis: RedisClient = opened.runtime.redis('kit');
  const dataSource: DataSource = await opened.runtime.dataSource({ name: 'kit', entities: [], migrations: [] });
  const { app, finalize } = createServiceApp({
    service: 'images',
    config,
    logger,
    readOnly: { enabled: false } as ReadOnlySwitch,
    readiness: opened.runtime.readiness,
  });
  app.get('/db', async (_req: Request, res: Response) => {
    res.json({ success: true, rows: await dataSource.query('SELECT 1 AS one') });
  });
  app.get('/slow', async (_req: Request, res: Response) => {
    res.json({ success: true, rows: await dataSource.query('SELECT SLEEP(0.2) AS slept') });
  });
  app.post('/write', async (_req: Request, res: Response) => {
    await dataSource.query('UPDATE kit_writes SET v = v + 1 WHERE id = 1');
    res.json({ success: true });
  });
  app.get('/redis', async (_req: Request, res: Response) => {
    res.json({ success: true, value: await redis.get(`${ctx.redisPrefix}probe`) });
  });
  finalize();
  server = await serveForTest(app);
});

afterAll(async () => {
  proxies?.restore();
  await lockHolder?.end().catch(() => undefined);
  await server?.close();
  for (const close of [...(closers ?? [])].reverse()) await close().catch(() => undefined);
  await proxies?.close();
  await ctx?.cleanup();
});

/** The request, and how long it took. */
async function timed(path: string, method = 'GET') {
  const started = Date.now();
  const res = await request(`${server.url}${path}`, { method, signal: AbortSignal.timeout(10_000) });
  return { res, ms: Date.now() - started };
}

async function expectUnavailable(path: string, method = 'GET'): Promise<void> {
  const { res, ms } = await timed(path, method);
  expect(res.status, path).toBe(503);
  expect(res.body).toEqual({
    success: false,
    code: 1004,
    error: 'A service this request needs is unavailable right now; try again shortly.',
  });
  expect(res.headers.get('retry-after')).toBe('2');
  expect(ms, `${path} answered in ${ms} ms`).toBeLessThan(3000);
}

async function expectRecovered(path: string): Promise<void> {
  await expect.poll(async () => (await timed(path)).res.status, { timeout: 5000, interval: 100 }).toBe(200);
}

describe('a stalled database (SIGSTOP)', () => {
  it('answers 503 1004 fast, keeps answering fast while it lasts, /ready names it, and recovers alone', async () => {
    expect((await timed('/db')).res.status).toBe(200);
    db.stall();
    try {
      await expectUnavailable('/db');
      // The circuit is open now: the next ones do not wait for a timeout at all.
      for (let i = 0; i < 3; i++) await expectUnavailable('/db');
      expect((await timed('/redis')).res.status).toBe(200);
      const ready = await timed('/ready');
      expect(ready.res.status).toBe(503);
      expect(ready.res.body).toMatchObject({ success: false, code: 1004, checks: { database: 'down', redis: 'up' } });
    } finally {
      db.restore();
    }
    await expectRecovered('/db');
    expect((await timed('/ready')).res.body).toEqual({
      success: true,
      ready: true,
      checks: { database: 'up', redis: 'up' },
    });
  });
});

describe('a write held by the database (a commit a Galera cluster holds while it evicts a node)', () => {
  it('answers 503 1004 before its deadline while reads go on; the probe finds the writer and the circuit stays closed', async () => {
    await lockHolder.query('START TRANSACTION');
    await lockHolder.query('SELECT v FROM kit_writes WHERE id = 1 FOR UPDATE');
    try {
      // DB_QUERY_TIMEOUT_MS is 500 here: the write is given up at 400 ms, not at the statement timeout.
      await expectUnavailable('/write', 'POST');
      expect((await timed('/db')).res.status).toBe(200);
    } finally {
      await lockHolder.query('ROLLBACK');
    }
    await expectRecovered('/db');
    expect((await timed('/write', 'POST')).res.status).toBe(200);
  });
});

describe('connections cut under a statement (HAProxy moving writes to another node)', () => {
  it('answers that request 503 1004, and the circuit, trying a fresh connection, does not take it as an outage', async () => {
    const slow = timed('/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    db.cut();
    db.restore();
    const { res } = await slow;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, code: 1004 });
    expect((await timed('/db')).res.status).toBe(200);
    expect((await timed('/ready')).res.body).toMatchObject({ checks: { database: 'up' } });
  });
});

describe('a dead database', () => {
  it('answers 503 1004 fast and recovers alone when it is back', async () => {
    db.cut();
    try {
      await expectUnavailable('/db');
      await expectUnavailable('/db');
    } finally {
      db.restore();
    }
    await expectRecovered('/db');
  });
});

describe('a dead Redis', () => {
  it('answers 503 1004 fast, /ready names it, and recovers alone', async () => {
    cache.cut();
    try {
      await expectUnavailable('/redis');
      await expectUnavailable('/redis');
      expect((await timed('/db')).res.status).toBe(200);
      expect((await timed('/ready')).res.body).toMatchObject({ code: 1004, checks: { redis: 'down', database: 'up' } });
    } finally {
      cache.restore();
    }
    await expectRecovered('/redis');
  });
});

describe('a stalled Redis', () => {
  it('answers 503 1004 after the command timeout', async () => {
    cache.stall();
    try {
      await expectUnavailable('/redis');
    } finally {
      cache.restore();
    }
    await expectRecovered('/redis');
  });
});

describe('logs', () => {
  it('report each outage once, as JSON', () => {
    const entries = logLines.map((line) => JSON.parse(line) as { message: string });
    const messages = entries.map((entry) => entry.message);
    const count = (message: string): number => messages.filter((m) => m === message).length;
    // Two database outages (stalled, then dead), one Redis outage that closed the connection; the
    // held write and the cut connections were no outage.
    expect(count('database unavailable; answering 503 until it is back')).toBe(2);
    expect(count('database connection restored')).toBe(2);
    expect(count('redis connection lost')).toBe(1);
    expect(count('redis connection restored')).toBe(1);
  });
});
