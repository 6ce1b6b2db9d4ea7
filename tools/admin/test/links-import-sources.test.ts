import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { shortenerDatabase } from '@pawlink/shortener';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport, sendJson, standIn } from './link-import-helpers.js';
import { runAdmin } from './run-admin.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/links/', import.meta.url));

let ctx: TestContext;
let auth: DataSource;
let shortener: DataSource;
let dir: string;

beforeAll(async () => {
  ctx = await createTestContext('links-sources');
  expect((await runAdmin(ctx.env, ['migrate'])).code).toBe(0);
  const config = loadBaseConfig(ctx.env);
  auth = createDataSource(config.database, authDatabase);
  shortener = createDataSource(config.database, shortenerDatabase);
  await Promise.all([auth.initialize(), shortener.initialize()]);
  dir = await mkdtemp(path.join(os.tmpdir(), 'links-sources-'));
});

afterAll(async () => {
  await Promise.all([auth.destroy(), shortener.destroy()]);
  await ctx.cleanup();
});

const newKey = async () =>
  (await new ApiKeyRepository(auth).create({ name: 'Import', contact: 'import@example.com', flags: [] })).record.id;

/** code, url, createdAt, visits of the owner's entries, oldest pos first. */
const linksOf = async (owner: number): Promise<Array<[string, string, string, number]>> =>
  (
    await shortener.query(
      `SELECT s.code, s.url, s.created_at, i.visits FROM short_urls s JOIN short_url_imports i ON i.short_url_pos = s.pos
        WHERE s.owner_key_id = ? ORDER BY s.pos`,
      [owner],
    )
  ).map((r: { code: string; url: string; created_at: Date; visits: string }) => [
    r.code,
    r.url,
    r.created_at.toISOString(),
    Number(r.visits),
  ]);

const importFrom = async (owner: number, from: string, location: string, ...more: string[]) => {
  const report = path.join(dir, `${from}-${owner}.jsonl`);
  const result = await runAdmin(ctx.env, [
    'links',
    'import',
    location,
    '--from',
    from,
    '--owner',
    String(owner),
    '--report',
    report,
    ...more,
  ]);
  return { ...result, report };
};

// Each case runs bin/admin one to three times (a process start each, slow on a busy machine).
describe('bin/admin links import from other shorteners', { timeout: 180_000 }, () => {
  it("imports Bitly's export CSV with its back-halves (custom first), dates and clicks", async () => {
    const owner = await newKey();
    const result = await importFrom(owner, 'bitly-csv', path.join(FIXTURES, 'bitly.csv'));
    expect(result.code).toBe(0);
    expect(await linksOf(owner)).toEqual([
      ['spring', 'https://shop.example.com/sale?utm_source=bitly', '2024-03-01T10:15:00.000Z', 1543],
      ['4aBcDeF', 'https://docs.example.com/start', '2023-11-20T08:00:00.000Z', 27],
    ]);
    const tags: Array<{ tag: string }> = await shortener.query(
      'SELECT t.tag FROM short_url_tags t JOIN short_urls s ON s.pos = t.short_url_pos WHERE s.code = ? ORDER BY t.tag',
      ['spring'],
    );
    expect(tags.map((t) => t.tag)).toEqual(['sale', 'spring']);
    expect((await readReport(result.report)).lines).toEqual([
      {
        outcome: 'refused',
        at: 'row 3',
        code: '2pRnTr9',
        reason: 'The provided url is invalid: private, loopback and reserved addresses are not allowed.',
      },
    ]);
  });

  it("imports Shlink's CSV export", async () => {
    const owner = await newKey();
    const result = await importFrom(owner, 'shlink', path.join(FIXTURES, 'shlink-export.csv'));
    expect(result.code).toBe(0);
    expect(await linksOf(owner)).toEqual([
      ['abc123', 'https://example.com/one', '2023-05-06T07:08:09.000Z', 42],
      ['Docs-2', 'https://docs.example.com/two', '2023-05-31T22:00:00.000Z', 0],
    ]);
  });

  it("imports from Shlink's REST API page after page with its API key, and stops on a refused key", async () => {
    const shortUrl = (i: number) => ({
      shortCode: `sh-${i}`,
      shortUrl: `https://s.example.com/sh-${i}`,
      longUrl: `https://example.com/shlink/${i}`,
      dateCreated: '2022-02-03T04:05:06+00:00',
      tags: ['imported'],
      meta: {
        validSince: null,
        validUntil: i === 0 ? '2031-01-01T00:00:00+00:00' : null,
        maxVisits: i === 0 ? 500 : null,
      },
      domain: null,
      title: null,
      crawlable: false,
      forwardQuery: true,
      visitsSummary: { total: i, nonBots: i, bots: 0 },
    });
    const all = Array.from({ length: 60 }, (_, i) => shortUrl(i));
    const server = await standIn((req, url, res) => {
      if (req.headers['x-api-key'] !== 'shlink-key' || url.pathname !== '/rest/v3/short-urls')
        return sendJson(res, 401, {
          type: 'https://shlink.io/api/error/invalid-api-key',
          title: 'Invalid API key',
          status: 401,
        });
      const page = Number(url.searchParams.get('page'));
      const perPage = Number(url.searchParams.get('itemsPerPage'));
      const data = all.slice((page - 1) * perPage, page * perPage);
      sendJson(res, 200, {
        shortUrls: {
          data,
          pagination: {
            currentPage: page,
            pagesCount: Math.ceil(all.length / perPage),
            itemsPerPage: perPage,
            itemsInCurrentPage: data.length,
            totalItems: all.length,
          },
        },
      });
    });
    try {
      const owner = await newKey();
      const result = await importFrom(owner, 'shlink', server.url, '--api-key', 'shlink-key');
      expect(result.stderr).toBe('');
      expect(result.lastLine).toMatch(/^Imported 60 \(0 under a new code\), skipped 0, refused 0\./);
      expect(server.requests.map((u) => u.search)).toEqual(['?page=1&itemsPerPage=50', '?page=2&itemsPerPage=50']);
      const links = await linksOf(owner);
      expect(links).toHaveLength(60);
      expect(links[59]).toEqual(['sh-59', 'https://example.com/shlink/59', '2022-02-03T04:05:06.000Z', 59]);
      const [first] = await shortener.query('SELECT expires_at, max_visits FROM short_urls WHERE code = ?', ['sh-0']);
      expect([first.expires_at.toISOString(), first.max_visits]).toEqual(['2031-01-01T00:00:00.000Z', 500]);

      const refused = await importFrom(await newKey(), 'shlink', server.url, '--api-key', 'wrong');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/Stopped: the source failed: .*\/rest\/v3\/short-urls answered 401/);

      const keyless = await importFrom(owner, 'shlink', server.url);
      expect([keyless.code, keyless.stderr]).toEqual([
        2,
        `error: Cannot open the source: --from shlink ${server.url} needs --api-key\n`,
      ]);
    } finally {
      await server.close();
    }
  });

  it("imports from Kutt's API v2 page after page with X-API-KEY", async () => {
    const link = (i: number) => ({
      id: `0d3c1b2a-${i}`,
      address: `kt${i}`,
      banned: false,
      created_at: '2021-09-10T11:12:13.000Z',
      updated_at: '2021-09-10T11:12:13.000Z',
      description: null,
      expire_in: null,
      password: false,
      target: `https://example.com/kutt/${i}`,
      visit_count: i * 2,
      domain: null,
      link: `https://kutt.example/kt${i}`,
    });
    const all = Array.from({ length: 55 }, (_, i) => link(i));
    const server = await standIn((req, url, res) => {
      if (req.headers['x-api-key'] !== 'kutt-key') return sendJson(res, 401, { error: 'Unauthorized.' });
      if (url.pathname !== '/api/v2/links') return sendJson(res, 404, { error: 'Not found.' });
      const skip = Number(url.searchParams.get('skip'));
      const limit = Number(url.searchParams.get('limit'));
      sendJson(res, 200, { limit, skip, total: all.length, data: all.slice(skip, skip + limit) });
    });
    try {
      const owner = await newKey();
      const result = await importFrom(owner, 'kutt', server.url, '--api-key', 'kutt-key');
      expect(result.code).toBe(0);
      expect(server.requests.map((u) => u.search)).toEqual([
        '?limit=50&skip=0&all=false',
        '?limit=50&skip=50&all=false',
      ]);
      const links = await linksOf(owner);
      expect(links).toHaveLength(55);
      expect(links[54]).toEqual(['kt54', 'https://example.com/kutt/54', '2021-09-10T11:12:13.000Z', 108]);
    } finally {
      await server.close();
    }
  });

  it('stops with the report when a source answers a page with an error', async () => {
    let calls = 0;
    const server = await standIn((_req, url, res) => {
      calls++;
      if (calls > 1) return sendJson(res, 500, { error: 'database down' });
      sendJson(res, 200, {
        limit: 50,
        skip: 0,
        total: 51,
        data: Array.from({ length: 50 }, (_, i) => ({
          address: `kerr${i}`,
          target: `https://example.com/kerr/${i}`,
          created_at: '2021-01-01T00:00:00.000Z',
          visit_count: 1,
        })),
      });
      void url;
    });
    try {
      const owner = await newKey();
      const result = await importFrom(owner, 'kutt', server.url, '--api-key', 'k');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('answered 500');
      expect(await linksOf(owner)).toHaveLength(50);
      expect((await readReport(result.report)).summary).toMatchObject({
        imported: 50,
        stopped: expect.stringContaining('answered 500'),
      });
    } finally {
      await server.close();
    }
  });

  it("imports YOURLS' own yourls_url table (keywords, dates, clicks) through a connection string, writing nothing there", async () => {
    const database = `${ctx.dbPrefix}yourls`;
    const connection = await mysql.createConnection({ host: '127.0.0.1', user: 'root', password: '' });
    try {
      await connection.query(`CREATE DATABASE \`${database}\``);
      await connection.query(`USE \`${database}\``);
      // YOURLS 1.9's schema of the url table (includes/functions-install.php), prefix "yl_".
      await connection.query(`CREATE TABLE yl_url (
        keyword varchar(100) COLLATE utf8mb4_bin NOT NULL DEFAULT '',
        url text COLLATE utf8mb4_bin NOT NULL,
        title text CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci,
        timestamp timestamp NOT NULL DEFAULT current_timestamp(),
        ip varchar(41) COLLATE utf8mb4_bin NOT NULL,
        clicks int(10) unsigned NOT NULL,
        PRIMARY KEY (keyword),
        KEY ip (ip),
        KEY timestamp (timestamp)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
      await connection.query(`SET time_zone = '+00:00'`);
      await connection.query(
        `INSERT INTO yl_url (keyword, url, title, timestamp, ip, clicks) VALUES
          ('ozh', 'https://ozh.org/', 'Ozh', '2019-04-01 12:00:00', '127.0.0.1', 321),
          ('Yourls', 'https://yourls.org/docs', 'YOURLS docs', '2020-05-06 07:08:09', '127.0.0.1', 7),
          ('local', 'http://127.0.0.1/wp-admin', 'Admin', '2020-05-06 07:08:09', '127.0.0.1', 1)`,
      );
      const owner = await newKey();
      const result = await importFrom(owner, 'yourls', `mysql://root@127.0.0.1:3306/${database}?prefix=yl_`);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(await linksOf(owner)).toEqual([
        ['Yourls', 'https://yourls.org/docs', '2020-05-06T07:08:09.000Z', 7],
        ['ozh', 'https://ozh.org/', '2019-04-01T12:00:00.000Z', 321],
      ]);
      expect((await readReport(result.report)).lines).toEqual([
        {
          outcome: 'refused',
          at: 'keyword local',
          code: 'local',
          reason: 'The provided url is invalid: private, loopback and reserved addresses are not allowed.',
        },
      ]);
      const [rows] = await connection.query('SELECT COUNT(*) AS n, SUM(clicks) AS clicks FROM yl_url');
      expect(rows).toEqual([{ n: 3, clicks: '329' }]);

      const missing = await importFrom(owner, 'yourls', `mysql://root@127.0.0.1:3306/${database}?prefix=none_`);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/Stopped: the source failed: .*none_url/);
      const badPrefix = await importFrom(owner, 'yourls', `mysql://root@127.0.0.1/${database}?prefix=x;drop`);
      expect([badPrefix.code, badPrefix.stderr]).toEqual([
        2,
        'error: Cannot open the source: prefix "x;drop" is not a table prefix (letters, digits, _)\n',
      ]);
    } finally {
      await connection.end();
    }
  });
});
