/**
 * `pnpm bench shortener`: redirect throughput of the real shortener process (dist/main.js) against
 * a bare node:http ceiling, both over the same 10,000 codes at 50 connections, plus create
 * throughput at 20 connections. Servers run in their own processes; autocannon runs here.
 */
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, migrateDatabase } from '@pawlink/service-kit';
import { createTestContext, freePort } from '@pawlink/test-kit';
import autocannon, { type Result } from 'autocannon';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadShortenerConfig } from '../config.js';
import { shortenerDatabase } from '../db/shortener.database.js';

const CODES = 10_000;
const REDIRECT_CONNECTIONS = 50;
const CREATE_CONNECTIONS = 20;
/** Seconds per measured run; runs alternate between the two servers so background load hits both alike. */
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 3;

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

async function waitForOnline(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`shortener exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/online`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('shortener did not come online');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([once(child, 'exit'), sleep(10_000)]);
}

function redirectRun(url: string, codes: string[], duration: number): Promise<Result> {
  let next = 0;
  return autocannon({
    url,
    connections: REDIRECT_CONNECTIONS,
    duration,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          request.path = `/${codes[next++ % codes.length]}`;
          return request;
        },
      },
    ],
  });
}

function assertAll3xx(name: string, result: Result): void {
  const total = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  if (result['3xx'] !== total || result.errors > 0 || total === 0) {
    throw new Error(`${name}: expected only 302s, got ${JSON.stringify({ total, '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'], errors: result.errors })}`);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<void> {
  const loadAtStart = os.loadavg().map((n) => n.toFixed(2)).join(' ');
  const ctx = await createTestContext('bench');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { ...process.env, ...ctx.env, SHORTENER_PORT: String(port), SHORTENER_URL: baseUrl, LOG_LEVEL: 'warn' };
  const config = loadShortenerConfig(env);
  let shortener: ChildProcess | undefined;
  let ceiling: ChildProcess | undefined;
  try {
    await migrateDatabase(config.database, authDatabase);
    await migrateDatabase(config.database, shortenerDatabase);
    const authDataSource = createDataSource(config.database, authDatabase);
    await authDataSource.initialize();
    const { key } = await new ApiKeyRepository(authDataSource).create({ name: 'bench', contact: 'bench@localhost', flags: ['shortener'], rateLimitRoute: 0, rateLimitGlobal: 0 });
    await authDataSource.destroy();

    const entry = fileURLToPath(new URL('../main.js', import.meta.url));
    shortener = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    await waitForOnline(baseUrl, shortener);

    out(`== shortener benchmark (node ${process.version}, ${os.cpus().length} CPUs)`);
    out(`creating ${fmt(CODES)} short urls through POST /create at ${CREATE_CONNECTIONS} connections…`);
    const targets: [string, string][] = [];
    let sequence = 0;
    const stamp = Date.now().toString(36);
    const createResult = await autocannon({
      url: baseUrl,
      connections: CREATE_CONNECTIONS,
      amount: CODES,
      requests: [
        {
          method: 'POST',
          path: '/create',
          headers: { 'content-type': 'application/json', authorization: key },
          setupRequest: (request) => {
            request.body = JSON.stringify({ url: `https://bench.example.com/${stamp}/${sequence++}` });
            return request;
          },
          onResponse: (status, body) => {
            if (status !== 201) return;
            const data = (JSON.parse(body) as { data: { code: string; url: string } }).data;
            targets.push([data.code, data.url]);
          },
        },
      ],
    });
    if (targets.length !== CODES) throw new Error(`expected ${CODES} creates, got ${targets.length} (${createResult['4xx']} 4xx, ${createResult['5xx']} 5xx, ${createResult.errors} errors)`);
    const codes = targets.map(([code]) => code);

    ceiling = fork(fileURLToPath(new URL('./ceiling.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    ceiling.send({ targets });
    const [{ port: ceilingPort }] = (await once(ceiling, 'message')) as [{ port: number }];
    const ceilingUrl = `http://127.0.0.1:${ceilingPort}`;

    // Warm both (JIT, connection pools, the shortener's in-process cache), then measure in turns.
    await redirectRun(ceilingUrl, codes, WARMUP_SECONDS);
    await redirectRun(baseUrl, codes, WARMUP_SECONDS);
    const bare: Result[] = [];
    const ours: Result[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ceilingRun = await redirectRun(ceilingUrl, codes, DURATION_SECONDS);
      assertAll3xx('ceiling', ceilingRun);
      bare.push(ceilingRun);
      const shortenerRun = await redirectRun(baseUrl, codes, DURATION_SECONDS);
      assertAll3xx('shortener', shortenerRun);
      ours.push(shortenerRun);
    }

    const bareRps = median(bare.map((r) => r.requests.average));
    const oursRps = median(ours.map((r) => r.requests.average));
    const bareP99 = median(bare.map((r) => r.latency.p99));
    const oursP99 = median(ours.map((r) => r.latency.p99));
    const ratio = oursRps / bareRps;
    const p99Ratio = oursP99 / Math.max(bareP99, 1);
    const roundRatios = ours.map((r, i) => fmt(r.requests.average / bare[i]!.requests.average, 2)).join(', ');
    out();
    out(`GET /:code over ${fmt(CODES)} codes, ${REDIRECT_CONNECTIONS} connections, median of ${ROUNDS} alternating ${DURATION_SECONDS}s runs`);
    out('| server | requests/s | p50 ms | p99 ms | ratio (req/s) | p99 × ceiling |');
    out('|---|---:|---:|---:|---:|---:|');
    out(`| node:http 302 from a Map (ceiling) | ${fmt(bareRps)} | ${median(bare.map((r) => r.latency.p50))} | ${bareP99} | 1.00 | 1.00 |`);
    out(`| shortener (dist/main.js) | ${fmt(oursRps)} | ${median(ours.map((r) => r.latency.p50))} | ${oursP99} | ${fmt(ratio, 2)} | ${fmt(p99Ratio, 2)} |`);
    out(`per-round ratios: ${roundRatios}; load average at start: ${loadAtStart}`);
    out();
    out(`POST /create, ${CREATE_CONNECTIONS} connections, ${fmt(CODES)} creates`);
    out('| creates/s | p50 ms | p99 ms |');
    out('|---:|---:|---:|');
    out(`| ${fmt(CODES / (createResult.duration || 1))} | ${createResult.latency.p50} | ${createResult.latency.p99} |`);
    out();
    out(`target: ratio ≥ 0.50 (${ratio >= 0.5 ? 'met' : 'NOT met'}), p99 ≤ 2× ceiling (${p99Ratio <= 2 ? 'met' : 'NOT met'})`);
  } finally {
    if (ceiling) await stop(ceiling);
    if (shortener) await stop(shortener);
    await ctx.cleanup();
  }
}

await main();
