/**
 * `pnpm bench images`: random-endpoint throughput and p99 latency with a 1,000-image and a
 * 1,000,000-image category (rows inserted directly, same run), with and without sizeLimit, and
 * the latency of a 100-image bulk request. Not a test: prints a table with the 1M/1k ratios.
 *
 * Uses its own schema and Redis prefix (`<DB_PREFIX>bench_`, `<REDIS_PREFIX>bench:`) and drops
 * them at the end. BENCH_ROWS overrides the large size, BENCH_SECONDS the duration of a run,
 * BENCH_ROUNDS the number of alternating rounds, BENCH_CONNECTIONS the concurrency.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, createRedis, databaseName, dropDatabase, migrateDatabase } from '@pawlink/service-kit';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { loadImagesConfig } from '../config.js';
import type { ImageRow } from '../db/entities/image.entity.js';
import { imagesDatabase } from '../db/images.database.js';
import { RecordCacheRepository } from '../repositories/record-cache.repository.js';

const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const INSERT_BATCH = 5_000;
const TYPES = [
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['gif', 'image/gif'],
] as const;

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const base = loadImagesConfig(process.env);
const config = loadImagesConfig({ ...process.env, DB_PREFIX: `${base.database.prefix}bench_`, REDIS_PREFIX: `${base.redis.prefix}bench:`, LOG_LEVEL: 'warn' });
const redis = createRedis(config.redis, { name: 'images-bench' });

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  return port;
}

/** Rows in primary-key order (sorted MD5s) so InnoDB appends instead of splitting pages. */
async function fillCategory(connection: mysql.Connection, db: string, count: number): Promise<void> {
  const started = Date.now();
  await connection.query('INSERT INTO categories (db, name, disabled, disabled_comment, created_at) VALUES (?, ?, 0, NULL, NOW(3))', [db, `Bench > ${db}`]);
  const rows: Array<{ id: string; size: number; type: number }> = new Array(count);
  for (let i = 0; i < count; i++) {
    rows[i] = { id: createHash('md5').update(`${db}:${i}`).digest('hex'), size: 1024 + Math.floor(Math.random() * 8 * 1024 * 1024), type: i % 3 };
  }
  rows.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (let offset = 0; offset < count; offset += INSERT_BATCH) {
    const batch = rows.slice(offset, offset + INSERT_BATCH);
    const values = batch.map((r) => [r.id, db, TYPES[r.type]![0], TYPES[r.type]![1], r.size, 640, 480, '["Bench Artist"]', '["https://example.com/bench"]', null, null, new Date()]);
    await connection.query('INSERT INTO images (id, category, ext, mime_type, size, width, height, artists, sources, report_url, short_url, created_at) VALUES ?', [values]);
    if (offset % 200_000 === 0 && offset > 0) log(`  ${db}: ${offset} rows…`);
  }
  const inserted = Date.now();
  // What `images import` writes to Redis: the size index and the record cache.
  const key = `${config.redis.prefix}images:bysize:${db}`;
  const records = `${config.redis.prefix}images:records`;
  await redis.del(key);
  const createdAt = new Date();
  for (let offset = 0; offset < count; offset += 10_000) {
    const pipeline = redis.pipeline();
    for (let chunk = offset; chunk < Math.min(count, offset + 10_000); chunk += 1_000) {
      const scores: Array<string | number> = [];
      const fields: string[] = [];
      for (const r of rows.slice(chunk, Math.min(count, chunk + 1_000))) {
        scores.push(r.size, r.id);
        const row: ImageRow = { id: r.id, category: db, ext: TYPES[r.type]![0], mimeType: TYPES[r.type]![1], size: r.size, width: 640, height: 480, artists: ['Bench Artist'], sources: ['https://example.com/bench'], reportUrl: null, shortUrl: null, createdAt };
        fields.push(r.id, RecordCacheRepository.encode(row));
      }
      pipeline.zadd(key, ...scores);
      pipeline.hset(records, ...fields);
    }
    await pipeline.exec();
  }
  const indexBytes = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
  log(`  ${db}: ${count} rows in MySQL ${((inserted - started) / 1000).toFixed(1)} s, Redis index + records ${((Date.now() - inserted) / 1000).toFixed(1)} s (size index ${(indexBytes / 1048576).toFixed(1)} MiB)`);
}

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(label: string, url: string, headers: Record<string, string>, extra: { method?: 'GET' | 'POST'; body?: string; connections?: number } = {}): Promise<Row> {
  const result = await autocannon({ url, connections: extra.connections ?? CONNECTIONS, duration: SECONDS, headers, method: extra.method ?? 'GET', ...(extra.body === undefined ? {} : { body: extra.body }) });
  return { scenario: label, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

async function main(): Promise<void> {
  log(`images benchmark: ${SMALL} vs ${LARGE} images, ${SECONDS} s per run, ${CONNECTIONS} connections`);
  await dropDatabase(config.database, 'images');
  await migrateDatabase(config.database, authDatabase);
  await migrateDatabase(config.database, imagesDatabase);
  const auth = createDataSource(config.database, authDatabase);
  await auth.initialize();
  const { key } = await new ApiKeyRepository(auth).create({ name: 'bench', contact: 'bench', flags: ['images_bulk'], rateLimitRoute: 0, rateLimitGlobal: 0 });
  await auth.destroy();

  const connection = await mysql.createConnection({ host: config.database.host, port: config.database.port, user: config.database.user, password: config.database.password, database: databaseName(config.database, 'images') });
  await connection.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  log('building data…');
  await fillCategory(connection, 'bench.small', SMALL);
  await fillCategory(connection, 'bench.large', LARGE);
  await connection.end();
  const recordBytes = Number(await redis.call('MEMORY', 'USAGE', `${config.redis.prefix}images:records`, 'SAMPLES', '0'));
  log(`  record cache: ${(recordBytes / 1048576).toFixed(1)} MiB for ${SMALL + LARGE} records`);

  const port = await freePort();
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, [path.join(here, '..', 'main.js')], {
    env: { ...process.env, DB_PREFIX: config.database.prefix, REDIS_PREFIX: config.redis.prefix, IMAGES_PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Never leave the service running if the benchmark dies (a closed stdout pipe, Ctrl-C).
  const stopChild = (): void => void child.kill('SIGTERM');
  process.once('exit', stopChild);
  process.once('SIGINT', () => process.exit(130));
  process.stdout.on('error', () => process.exit(1));
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/online`)).ok) break;
      } catch {
        if (i > 100) throw new Error('images service did not start');
      }
      await sleep(100);
    }
    const headers = { authorization: key };
    await run('warm-up', `${url}/bench.large`, headers);
    await run('warm-up', `${url}/bench.small`, headers);
    const median = (values: number[]): number => {
      const sorted = [...values].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    };
    // The machine is shared: 1k and 1M runs alternate in short rounds so background load hits
    // both alike, and each figure is the median over the rounds.
    const pairs: Array<{ label: string; small: Row; large: Row; ratio: number }> = [];
    for (const [label, query] of [
      ['', ''],
      [' sizeLimit=1MB', '?sizeLimit=1MB'],
      [' amount=5', '?amount=5'],
      [' amount=5 sizeLimit=1MB', '?amount=5&sizeLimit=1MB'],
    ] as const) {
      const smalls: Row[] = [];
      const larges: Row[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        smalls.push(await run(`GET 1k${label}`, `${url}/bench.small${query}`, headers));
        larges.push(await run(`GET 1M${label}`, `${url}/bench.large${query}`, headers));
      }
      const summarize = (runs: Row[]): Row => ({
        scenario: runs[0]!.scenario,
        rps: Math.round(median(runs.map((r) => r.rps))),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        errors: runs.reduce((sum, r) => sum + r.errors, 0),
      });
      const ratio = median(larges.map((large, i) => large.p99 / Math.max(smalls[i]!.p99, 0.001)));
      pairs.push({ label: `GET${label}`, small: summarize(smalls), large: summarize(larges), ratio });
      log(`  done: GET${label}`);
    }
    const bulkHeaders = { ...headers, 'content-type': 'application/json' };
    const bulk = [
      await run('POST /bulk {"bench.large":100} (1 conn)', `${url}/bulk`, bulkHeaders, { method: 'POST', body: JSON.stringify({ 'bench.large': 100 }), connections: 1 }),
      await run('POST /bulk {"bench.large":100} sizeLimit=1MB (1 conn)', `${url}/bulk?sizeLimit=1MB`, bulkHeaders, { method: 'POST', body: JSON.stringify({ 'bench.large': 100 }), connections: 1 }),
    ];

    log('');
    log(`medians over ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONNECTIONS} connections`);
    log('| scenario | req/s | p50 ms | p99 ms | non-2xx/errors |');
    log('|---|---|---|---|---|');
    for (const r of [...pairs.flatMap((p) => [p.small, p.large]), ...bulk]) log(`| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} |`);
    log('');
    log('| 1M vs 1k | p99 ratio of medians (target ≤ 1.3) | median of per-round p99 ratios | req/s ratio |');
    log('|---|---|---|---|');
    for (const p of pairs) {
      log(`| ${p.label} | ${(p.large.p99 / Math.max(p.small.p99, 0.001)).toFixed(2)} | ${p.ratio.toFixed(2)} | ${(p.large.rps / Math.max(p.small.rps, 1)).toFixed(2)} |`);
    }
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await dropDatabase(config.database, 'images');
    await dropDatabase(config.database, 'auth');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.redis.prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
    await redis.quit();
  }
}

await main();
