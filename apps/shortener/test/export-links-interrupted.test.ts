import { createTestKey } from '@pawlink/auth/testing';
import { createLogger } from '@pawlink/service-kit';
import { startDependencyProxies, type DependencyProxies } from '@pawlink/test-kit';
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkImportRepository, type ImportedEntry } from '../src/repositories/link-import.repository.js';
import { EXPORT_PAGE } from '../src/services/export-links.service.js';
import { startHarness, type Harness } from './support.js';

/*
 * GET /links/export interrupted after its status has gone: the database failing (its connections
 * cut through a TCP proxy in front of the real MariaDB) and the client leaving. Each export is
 * large enough (LINKS entries of ~2 KB: ~13 MB) that it cannot all sit in socket buffers, so while
 * the client reads nothing the service is still part way through, whatever the machine's speed.
 */

const LINKS = 6_000;
const PAGES = LINKS / EXPORT_PAGE;
const LONG_PATH = 'p'.repeat(1_950);

let proxies: DependencyProxies;
let h: Harness;
const logLines: Array<Record<string, unknown>> = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
/** A key with LINKS entries. */
let key: string;

const entry = (i: number): ImportedEntry => ({
  code: `cut-${i}`,
  url: `https://example.com/${LONG_PATH}/${i}`,
  credit: 'Unknown',
  createdAt: new Date(Date.UTC(2022, 0, 1) + i * 1000),
  expiresAt: null,
  maxVisits: null,
  tags: [],
  visits: 0,
  origin: `cut-${i}`,
});

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  const direct: Record<string, string> = {};
  for (const name of ['DB_HOST', 'DB_PORT', 'REDIS_URL']) if (process.env[name]) direct[name] = process.env[name];
  proxies = await startDependencyProxies(direct);
  const logger = createLogger('shortener', 'debug', {
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  });
  h = await startHarness(
    'sh-export-cut',
    { DB_HOST: proxies.db.host, DB_PORT: String(proxies.db.port), DB_CONNECT_TIMEOUT_MS: '2000' },
    { logger },
  );
  key = await createTestKey(h.apiKeys, ['shortener']);
  const owner = (await h.apiKeys.findByKey(key))!.id;
  const imports = new LinkImportRepository(h.dataSource);
  for (let i = 0; i < LINKS; i += 500)
    expect(
      await imports.insertBatch(
        owner,
        'csv',
        Array.from({ length: 500 }, (_, j) => entry(i + j)),
        new Date(),
      ),
    ).toBe(true);
}, 180_000);

afterAll(async () => {
  proxies?.restore();
  await h?.close();
  await proxies?.close();
  process.off('unhandledRejection', onUnhandled);
});

interface Download {
  res: http.IncomingMessage;
  req: http.ClientRequest;
}

/** GET /links/export with its status and headers in, and nothing of the body read yet. */
function openDownload(query = ''): Promise<Download> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${h.url}/links/export${query}`, { headers: { authorization: key } }, (res) => {
      res.pause();
      resolve({ res, req });
    });
    req.on('error', reject);
  });
}

/** Reads the rest of `res`: the body, whether HTTP said it was complete, and the error the client saw. */
function readToClose(res: http.IncomingMessage): Promise<{ body: string; complete: boolean; error?: Error }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: Error | undefined;
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', (e) => (error = e));
    res.on('close', () =>
      resolve({ body: Buffer.concat(chunks).toString(), complete: res.complete, ...(error ? { error } : {}) }),
    );
    res.resume();
  });
}

/** The first log line `message` starts, once it is written. */
async function logged(message: string): Promise<Record<string, unknown>> {
  for (;;) {
    const line = logLines.find((l) => String(l.message).startsWith(message));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Error lines of the export (the service's other work logs its own while the database is cut). */
const exportErrors = (): number =>
  logLines.filter((l) => l.level === 'error' && String(l.message).startsWith('links export')).length;

/** Entries of the test's database that are running an export page query now. */
async function pageQueriesRunning(): Promise<number> {
  const database = `${h.ctx.dbPrefix}shortener`;
  const rows: Array<{ n: number | string }> = await h.dataSource.query(
    `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE '%short_url_imports i WHERE%' AND ID <> CONNECTION_ID()`,
    [database],
  );
  return Number(rows[0]!.n);
}

/** The whole export as fetch reads it: a working service answers all of it. */
async function fullExport(): Promise<string[]> {
  const res = await fetch(`${h.url}/links/export`, { headers: { authorization: key } });
  expect(res.status).toBe(200);
  return (await res.text()).split('\r\n').filter((l) => l !== '');
}

describe('GET /links/export when the database fails part way', () => {
  it('resets the connection (no complete-looking file), logs the failure, and serves again once the database is back', async () => {
    const { res } = await openDownload();
    expect(res.statusCode).toBe(200);
    // Every MariaDB connection of the service dies and new ones are refused: the next page cannot be read.
    proxies.db.cut();
    const read = await readToClose(res);
    proxies.db.restore();

    expect(read.complete).toBe(false);
    expect(read.error?.message).toMatch(/aborted|ECONNRESET|socket hang up/);
    const lines = read.body.split('\r\n');
    expect(lines[0]).toBe('url,code,credit,createdAt,tags,expiresAt,maxVisits,visits');
    expect(lines.length - 1).toBeLessThan(LINKS);

    const failure = await logged('links export cut short');
    expect(failure).toMatchObject({ level: 'error', format: 'csv' });
    expect(failure.pages).toBeGreaterThanOrEqual(1);
    expect(failure.pages).toBeLessThan(PAGES);
    expect(failure.error).toBeDefined();

    // The pool made new connections: the same export, whole.
    const again = await fullExport();
    expect(again.length).toBe(LINKS + 1);
    expect(again[LINKS]).toContain(`,cut-${LINKS - 1},`);
    expect(unhandled).toEqual([]);
  });

  it('makes fetch reject reading the body', async () => {
    const res = await fetch(`${h.url}/links/export?format=ndjson`, { headers: { authorization: key } });
    expect(res.status).toBe(200);
    proxies.db.cut();
    const outcome = await res.text().then(
      (text) => `whole: ${text.length}`,
      (error: Error) => `rejected: ${error.message}`,
    );
    proxies.db.restore();
    expect(outcome).toBe('rejected: terminated');
    expect((await fullExport()).length).toBe(LINKS + 1);
  });

  it('resets an HTTP/1.0 download too, whose body ends with the connection (so an orderly close would look complete)', async () => {
    const socket = net.connect(Number(new URL(h.url).port), new URL(h.url).hostname);
    socket.write(`GET /links/export HTTP/1.0\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`);
    const head = await new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => {
        socket.pause();
        resolve(chunk.toString());
      }),
    );
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).not.toMatch(/transfer-encoding/i);
    proxies.db.cut();
    const ending = await new Promise<string>((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on('end', () => resolve('end'));
      socket.on('data', () => undefined);
      socket.resume();
    });
    proxies.db.restore();
    socket.destroy();
    expect(ending).toBe('ECONNRESET');
    expect((await fullExport()).length).toBe(LINKS + 1);
    expect(unhandled).toEqual([]);
  });
});

describe('GET /links/export when the database is gone before the first page', () => {
  it('answers 503 1004 as JSON (nothing was sent yet), and logs no cut', async () => {
    const cutsBefore = exportErrors();
    proxies.db.cut();
    const res = await fetch(`${h.url}/links/export`, { headers: { authorization: key } });
    const body = (await res.json()) as { code: number };
    proxies.db.restore();
    expect([res.status, res.headers.get('content-type'), body.code]).toEqual([
      503,
      'application/json; charset=utf-8',
      1004,
    ]);
    expect(exportErrors()).toBe(cutsBefore);
    expect((await fullExport()).length).toBe(LINKS + 1);
  });
});

describe('GET /links/export when the client leaves part way', () => {
  it('reads no further page, logs at debug only, and keeps serving', async () => {
    const errorsBefore = exportErrors();
    const { req, res } = await openDownload('?format=ndjson');
    expect(res.statusCode).toBe(200);
    req.destroy();

    const left = await logged('links export: the client left');
    expect(left).toMatchObject({ level: 'debug', format: 'ndjson' });
    expect(left.pages).toBeGreaterThanOrEqual(1);
    expect(left.pages).toBeLessThan(PAGES);
    // The loop has ended (that line is its last act): no page query of it is running or to come.
    expect(await pageQueriesRunning()).toBe(0);
    expect(exportErrors()).toBe(errorsBefore);

    expect((await fullExport()).length).toBe(LINKS + 1);
    expect(unhandled).toEqual([]);
  });
});
