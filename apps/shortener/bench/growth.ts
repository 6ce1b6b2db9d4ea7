/**
 * The `redirect-growth` row (issue 37, "flat as the links grow"): redirects of one shortener process
 * that has made many links against a fresh process, on the same databases. 1,000,000 links are
 * inserted into MySQL directly (MariaDB's sequence engine, one statement per 100,000 rows), then
 * 200,000 are created through `POST /create` in the grown process; its redirects of 1,000 warm codes
 * are then measured against a fresh process's. Its RSS is printed before the creates, every 50,000
 * creates and after; its pid too, for a probe that reads its heap (ADR 0011, "Memory as the links grow").
 */
import { readFile } from 'node:fs/promises';
import { DEFAULT_CREDIT } from '@pawlink/contracts';
import { forEachConcurrently, startService, type BenchContext, type ServerProcess } from '@pawlink/bench';
import mysql from 'mysql2/promise';

export interface GrowthSetup {
  mysql: { host: string; port: number; user: string; password: string; database: string };
  /** The service's entry (`dist/main.js`) and its environment. */
  main: string;
  env: NodeJS.ProcessEnv;
  /** A key without a limit that may create. */
  key: string;
}

/** Links inserted directly into MySQL (BENCH_GROWTH_LINKS). */
const LINKS = Number(process.env.BENCH_GROWTH_LINKS ?? 1_000_000);
/** Links created through HTTP in the grown process (BENCH_GROWTH_CREATES). */
const CREATES = Number(process.env.BENCH_GROWTH_CREATES ?? 200_000);
const INSERT_CHUNK = 100_000;
const REDIRECT_CODES = 1_000;
const CREATE_CONCURRENCY = 50;
const bulkCode = (i: number): string => `bulk${i}`;

/** Inserts `count` plain links `bulk1`…`bulk<count>` straight into `short_urls`. */
async function insertLinks(config: GrowthSetup['mysql'], count: number): Promise<void> {
  const connection = await mysql.createConnection(config);
  try {
    for (let from = 1; from <= count; from += INSERT_CHUNK) {
      const to = Math.min(count, from + INSERT_CHUNK - 1);
      await connection.query(
        `INSERT INTO short_urls (code, url, credit, created_at)
         SELECT CONCAT('bulk', seq), CONCAT('https://bulk.example.com/links/', seq), ?, NOW(3) FROM seq_${from}_to_${to}`,
        [DEFAULT_CREDIT],
      );
    }
  } finally {
    await connection.end();
  }
}

/** The resident set of a process this benchmark started, in MB (from /proc). */
async function rssMb(server: ServerProcess): Promise<number> {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

const loadAverage = async (): Promise<string> => (await readFile('/proc/loadavg', 'utf8')).split(' ', 3).join(' ');

/**
 * Puts each code in the instance's memory with one redirect, each from its own forwarded address
 * (TRUST_PROXY=1) so the per-address lookup limit never refuses one.
 */
async function warm(server: ServerProcess, paths: readonly string[]): Promise<void> {
  await forEachConcurrently(paths.length, 20, async (i) => {
    const response = await fetch(`${server.url}${paths[i]}`, {
      redirect: 'manual',
      headers: { 'X-Forwarded-For': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
    });
    const body = await response.text();
    if (response.status !== 302) throw new Error(`GET ${paths[i]} answered ${response.status} while warming: ${body}`);
  });
}

async function createThrough(server: ServerProcess, key: string, count: number, log: (line: string) => void) {
  const started = Date.now();
  await forEachConcurrently(count, CREATE_CONCURRENCY, async (i) => {
    const response = await fetch(`${server.url}/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: key },
      body: JSON.stringify({ url: `https://bench.example.com/growth/${started}/${i}` }),
    });
    const body = await response.text();
    if (response.status !== 201) throw new Error(`POST /create answered ${response.status}: ${body}`);
    if ((i + 1) % 50_000 === 0)
      log(`  ${(i + 1).toLocaleString('en-US')} created: RSS ${await rssMb(server)} MB (load ${await loadAverage()})`);
  });
  return (Date.now() - started) / 1000;
}

export async function measureGrowth(
  { defer, measure, log }: Pick<BenchContext, 'defer' | 'measure' | 'log'>,
  setup: GrowthSetup,
): Promise<void> {
  log(`inserting ${LINKS.toLocaleString('en-US')} links into MySQL…`);
  let started = Date.now();
  await insertLinks(setup.mysql, LINKS);
  log(`  ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const env = { ...setup.env, TRUST_PROXY: '1' };
  const paths = Array.from(
    { length: REDIRECT_CODES },
    (_, i) => `/${bulkCode(1 + Math.floor((i * LINKS) / REDIRECT_CODES))}`,
  );
  const requests = paths.map((path) => ({ path }));

  const grown = await startService('shortener', setup.main, env);
  defer(grown.stop);
  const early = await startService('shortener', setup.main, env);
  defer(early.stop);
  await warm(grown, paths);
  await warm(early, paths);
  await measure({
    endpoint: `GET /:code redirect (${REDIRECT_CODES.toLocaleString('en-US')} warm codes of ${LINKS.toLocaleString('en-US')} links), two fresh processes`,
    ceiling: 'a second fresh shortener process',
    target: null,
    pawlinkUrl: grown.url,
    ceilingUrl: early.url,
    requests,
  });
  await early.stop();
  const before = await rssMb(grown);
  log(
    `creating ${CREATES.toLocaleString('en-US')} links through POST /create in pid ${grown.pid}… (RSS ${before} MB, load ${await loadAverage()})`,
  );
  started = Date.now();
  const seconds = await createThrough(grown, setup.key, CREATES, log);
  const afterCreates = await rssMb(grown);
  log(`  ${seconds.toFixed(0)} s, ${Math.round(CREATES / seconds)} creates/s; RSS ${before} → ${afterCreates} MB`);

  const fresh = await startService('shortener', setup.main, env);
  defer(fresh.stop);
  // Both warmed alike: the creates may have pushed the codes out of the grown process's memory.
  await warm(grown, paths);
  await warm(fresh, paths);
  const freshRss = await rssMb(fresh);
  await measure({
    endpoint: `GET /:code redirect (${REDIRECT_CODES.toLocaleString('en-US')} warm codes of ${LINKS.toLocaleString('en-US')} links), after ${CREATES.toLocaleString('en-US')} creates in the process`,
    ceiling: 'a fresh shortener process on the same databases',
    target: { minRatio: 0.9 },
    pawlinkUrl: grown.url,
    ceilingUrl: fresh.url,
    requests,
  });
  log(
    `RSS: grown ${before} MB before the creates, ${afterCreates} MB after, ${await rssMb(grown)} MB after the redirects; fresh ${freshRss} MB warm, ${await rssMb(fresh)} MB after the redirects (load ${await loadAverage()})`,
  );
}
