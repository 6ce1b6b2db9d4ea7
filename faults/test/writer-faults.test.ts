import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  admin,
  createKey,
  createTestContext,
  request,
  startService,
  type ServiceProcess,
  type TestContext,
} from '@pawlink/test-kit';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateMariaDb, type PrivateMariaDb } from '../support/private-mariadb.js';

/*
 * The writer as a Galera cluster shows it to a service (ADR 0019), on a private MariaDB: a writer
 * that turned read-only (a node HAProxy is about to move writes off) is not ready, and a writer
 * that holds commits (SIGSTOP is the single-node stand-in for a cluster evicting a node) answers
 * 503 1004 with Retry-After, the request resolving within the client's timeout, and the next ones
 * without waiting. The built shortener runs against it; Redis is the shared one (own prefix).
 */

/** The client's bound, as the fault scenario's: a request that hangs fails the test by aborting. */
const CLIENT_TIMEOUT_MS = 3000;

let ctx: TestContext;
let dir: string;
let mariadb: PrivateMariaDb;
let root: mysql.Connection;
let shortener: ServiceProcess;
let key: string;
let created = 0;

beforeAll(async () => {
  ctx = await createTestContext('faults-writer');
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-writer-faults-'));
  mariadb = await startPrivateMariaDb(dir);
  root = await mariadb.connect();
  const env = {
    ...ctx.env,
    DB_HOST: '127.0.0.1',
    DB_PORT: String(mariadb.port),
    DB_USER: 'root',
    DB_PASSWORD: '',
    DB_PREFIX: 'writer_',
  };
  const migrated = await admin(env, ['migrate']);
  if (migrated.code !== 0) throw new Error(`bin/admin migrate exited ${migrated.code}:\n${migrated.stderr}`);
  key = await createKey(env, 'shortener');
  shortener = await startService('shortener', env);
}, 120_000);

afterAll(async () => {
  await shortener?.stop();
  await root?.end().catch(() => undefined);
  await mariadb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  await ctx?.cleanup();
});

const create = () =>
  request(`${shortener.url}/create`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `https://example.com/writer-faults/${++created}` }),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });

const ready = () => request(`${shortener.url}/ready`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });

function expectDependencyFailure(res: Awaited<ReturnType<typeof create>>): void {
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ success: false, code: 1004 });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('a writer that turned read-only', () => {
  it('is reported down by /ready until it takes writes again, while reads keep answering', async () => {
    const link = await create();
    expect(link.status).toBe(201);
    const code = (link.body as { data: { code: string } }).data.code;
    expect((await ready()).status).toBe(200);
    await root.query('SET GLOBAL read_only = 1');
    try {
      await expect
        .poll(async () => (await ready()).body, { timeout: 10_000, interval: 200 })
        .toMatchObject({ success: false, code: 1004, checks: { database: 'down' } });
      const info = await request(`${shortener.url}/${code}.json`, {
        headers: { authorization: key },
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      expect(info.status).toBe(200);
    } finally {
      await root.query('SET GLOBAL read_only = 0');
    }
    await expect
      .poll(async () => (await ready()).body, { timeout: 10_000, interval: 200 })
      .toMatchObject({ success: true, checks: { database: 'up' } });
  });
});

describe('a writer that holds commits (SIGSTOP)', () => {
  it('answers creates 503 1004 with Retry-After, the first and the next, and creates again once it resumes', async () => {
    expect((await create()).status).toBe(201);
    mariadb.daemon.signal('SIGSTOP');
    try {
      expectDependencyFailure(await create());
      // The circuit is open: the next ones do not wait on the stopped server.
      for (let i = 0; i < 3; i++) expectDependencyFailure(await create());
      expect((await ready()).body).toMatchObject({ checks: { database: 'down' } });
    } finally {
      mariadb.daemon.signal('SIGCONT');
    }
    await expect.poll(async () => (await create()).status, { timeout: 10_000, interval: 200 }).toBe(201);
  });
});
