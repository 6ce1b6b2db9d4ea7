import { createTestContext, startTcpProxy, type TcpProxy, type TestContext } from '@pawlink/test-kit';
import type { DataSource, EntityManager } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDataSource,
  ensureDatabase,
  hasReader,
  lagTolerantLookup,
  lagTolerantRead,
  loadBaseConfig,
  readWith,
  unavailableDependencyOf,
  type DatabaseConfig,
} from '../src/index.js';

/*
 * DB_READ_HOST/DB_READ_PORT: the reader here is the same MariaDB behind a TCP proxy the test can
 * cut, so which queries go to the reader shows in which ones fail while it is cut.
 */

let ctx: TestContext;
let proxy: TcpProxy;
let withReader: DataSource;
let withoutReader: DataSource;
const spec = { name: 'kit_reads', entities: [], migrations: [] };
const rowsOf = (manager: EntityManager) => manager.query<Array<{ n: number }>>('SELECT n FROM numbers ORDER BY n');

beforeAll(async () => {
  ctx = await createTestContext('kit-reads');
  const writer: DatabaseConfig = loadBaseConfig(ctx.env).database;
  await ensureDatabase(writer, spec.name);
  proxy = await startTcpProxy({ host: writer.host, port: writer.port });
  withoutReader = createDataSource(writer, spec);
  await withoutReader.initialize();
  await withoutReader.query('CREATE TABLE numbers (n INT PRIMARY KEY) ENGINE=InnoDB');
  await withoutReader.query('INSERT INTO numbers VALUES (1), (2)');
  const config = loadBaseConfig({ ...ctx.env, DB_READ_HOST: proxy.host, DB_READ_PORT: String(proxy.port) });
  expect(config.database.reader).toEqual({ host: proxy.host, port: proxy.port });
  withReader = createDataSource(config.database, spec);
  await withReader.initialize();
});

afterAll(async () => {
  proxy?.restore();
  await withReader?.destroy();
  await withoutReader?.destroy();
  await proxy?.close();
  await ctx?.cleanup();
});

describe('with DB_READ_HOST', () => {
  it('answers lag-tolerant reads from the reader, the same rows the writer has', async () => {
    expect(hasReader(withReader)).toBe(true);
    expect(await lagTolerantRead(withReader, rowsOf)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await readWith(withReader, { lagTolerant: true }, rowsOf)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('sends only lag-tolerant reads to the reader: every other query, transactions included, stays on the writer', async () => {
    proxy.cut();
    try {
      const failure = await lagTolerantRead(withReader, rowsOf).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(unavailableDependencyOf(failure)).toBe('database');
      await expect(readWith(withReader, { lagTolerant: true }, rowsOf)).rejects.toThrow();
      // The writer: plain queries, repositories, transactions, and reads not marked lag-tolerant.
      expect(await withReader.query('SELECT n FROM numbers WHERE n = 2')).toEqual([{ n: 2 }]);
      expect(await readWith(withReader, {}, rowsOf)).toEqual([{ n: 1 }, { n: 2 }]);
      await withReader.transaction(async (manager) => {
        await manager.query('INSERT INTO numbers VALUES (3)');
        expect(await rowsOf(manager)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      });
    } finally {
      proxy.restore();
    }
    expect(await lagTolerantRead(withReader, rowsOf)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('asks the writer again when the reader has nothing (it may lag behind a write just made)', async () => {
    const asked: string[] = [];
    const find = (manager: EntityManager) => {
      asked.push(manager.queryRunner ? 'reader' : 'writer');
      return Promise.resolve(null);
    };
    expect(await lagTolerantLookup(withReader, find)).toBeNull();
    expect(asked).toEqual(['reader', 'writer']);
    asked.length = 0;
    const found = await lagTolerantLookup(withReader, async (manager) => {
      asked.push(manager.queryRunner ? 'reader' : 'writer');
      return (await rowsOf(manager))[0] ?? null;
    });
    expect(found).toEqual({ n: 1 });
    expect(asked).toEqual(['reader']);
  });
});

describe('without DB_READ_HOST', () => {
  it('runs every read, lag-tolerant ones included, on the one pool, once', async () => {
    expect(hasReader(withoutReader)).toBe(false);
    expect(await lagTolerantRead(withoutReader, rowsOf)).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
    let asked = 0;
    expect(
      await lagTolerantLookup(withoutReader, (manager) => {
        asked++;
        expect(manager).toBe(withoutReader.manager);
        return Promise.resolve(null);
      }),
    ).toBeNull();
    expect(asked).toBe(1);
  });

  it('refuses a reader port without a reader host', () => {
    expect(() => loadBaseConfig({ ...ctx.env, DB_READ_PORT: '3307' })).toThrow(/DB_READ_PORT/);
    expect(() => loadBaseConfig({ ...ctx.env, DB_READ_HOST: 'replica', DB_READ_PORT: 'x' })).toThrow(/DB_READ_PORT/);
    expect(loadBaseConfig({ ...ctx.env, DB_READ_HOST: 'replica' }).database.reader).toEqual({
      host: 'replica',
      port: loadBaseConfig(ctx.env).database.port,
    });
  });
});
