import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import {
  admin,
  createKey,
  createTestContext,
  freePort,
  REPO_ROOT,
  startCallbackReceiver,
  startService,
  startWorker,
  type CallbackReceiver,
  type NodeProcess,
  type ServiceProcess,
  type TestContext,
} from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * infra/observability against the running system (issue 41): a real Prometheus (Debian's) on a
 * private port scrapes the three services' metrics listeners and a worker's, with the shipped
 * recording and alert rules loaded, while a short load runs through every service (links,
 * redirects, random images, thumbnails with callbacks that succeed, fail and answer 410, requests
 * refused by a rate limit). Then every query of the shipped Grafana dashboard is asked through
 * Prometheus' HTTP API and must answer data, and every rule must evaluate without error.
 */

const OBSERVABILITY = path.join(REPO_ROOT, 'infra/observability');
/** How long the load runs: long enough for several scrapes of every series, and a rate over it. */
const LOAD_MS = 20_000;
/** What a dashboard variable stands for when Grafana asks: every service, a window that spans the load. */
const GRAFANA_VARIABLES: Record<string, string> = { __rate_interval: '1m', service: '.*' };

let ctx: TestContext;
let board: FakeBoard;
let receiver: CallbackReceiver;
let dataDir: string;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;
let prometheusLog = '';
let key: string;
let limitedKey: string;
let services: Record<'shortener' | 'images' | 'thumbs', ServiceProcess>;
const procs: NodeProcess[] = [];

interface QueryResult {
  status: string;
  error?: string;
  data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

async function query(expr: string): Promise<QueryResult> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  return (await res.json()) as QueryResult;
}

/** Every PromQL expression of the dashboard, with Grafana's variables put in as Grafana would. */
async function dashboardQueries(): Promise<Array<{ panel: string; expr: string }>> {
  const dashboard = JSON.parse(await readFile(path.join(OBSERVABILITY, 'grafana/dashboards/pawlink.json'), 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      panel: panel.title,
      expr: target.expr.replace(/\$(\w+)/g, (whole, name: string) => GRAFANA_VARIABLES[name] ?? whole),
    })),
  );
}

function logs(): string {
  return [...procs.map((p) => `--- ${p.name}\n${p.tail(2000)}`), `--- prometheus\n${prometheusLog.slice(-2000)}`].join(
    '\n',
  );
}

/** The Prometheus config of this test: the shipped rules, the processes' metrics ports, a 1 s scrape. */
function prometheusConfig(targets: { services: string[]; worker: string }): string {
  const rules = ['pawlink-recording.rules.yml', 'pawlink-alerts.rules.yml']
    .map((file) => `  - ${path.join(OBSERVABILITY, 'prometheus/rules', file)}`)
    .join('\n');
  return [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'rule_files:',
    rules,
    'scrape_configs:',
    // The job names of the shipped config: the dashboard and the alerts select on them.
    '  - job_name: pawlink',
    `    static_configs: [{ targets: [${targets.services.map((t) => `'${t}'`).join(', ')}] }]`,
    '  - job_name: pawlink-worker',
    `    static_configs: [{ targets: ['${targets.worker}'] }]`,
    '',
  ].join('\n');
}

beforeAll(async () => {
  ctx = await createTestContext('e2eobserve');
  receiver = await startCallbackReceiver();
  // Delivered, refused once then delivered, and gone.
  receiver.answerWith((callPath, n) => (callPath === '/gone' ? 410 : callPath === '/flaky' && n % 2 === 1 ? 503 : 200));
  board = await startFakeBoard();
  const migrated = await admin(ctx.env, ['migrate']);
  expect(migrated.code, migrated.stderr).toBe(0);
  const seeded = await admin(ctx.env, ['images', 'seed-demo']);
  expect(seeded.code, seeded.stderr).toBe(0);
  const env = {
    ...ctx.env,
    LOG_LEVEL: 'warn',
    MEDIA_URL: 'http://media.test/thumbs',
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_REQUESTS_PER_SECOND: '50',
    THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(board.staticUrl).host,
    THUMBS_CALLBACK_PRIVATE_HOSTS: receiver.host,
    THUMBS_CALLBACK_RETRY_DELAYS_MS: '500,1000,1500,2000',
    PAWLINK_SECRETS_KEY: randomBytes(32).toString('hex'),
  };
  const auth = createDataSource(loadBaseConfig(env).database, { ...authDatabase, poolSize: 1 });
  await auth.initialize();
  const made = await new ApiKeyRepository(auth).create({
    name: 'observe',
    contact: 'observe@example.com',
    flags: ['shortener', 'thumbs'],
    rateLimitRoute: 0,
    rateLimitGlobal: 0,
  });
  await auth.destroy();
  key = made.key;
  const secret = await admin(env, ['apikey', 'webhook-secret', String(made.record.id)]);
  expect(secret.code, secret.stderr).toBe(0);
  // One create a window; the rest of each round's are refused (429, bucket shortener.create).
  limitedKey = await createKey(env, 'shortener', ['--rate-limit-route', '1'], 'limited');

  const started = await Promise.all(
    (['shortener', 'images', 'thumbs'] as const).map((name) => startService(name, env)),
  );
  procs.push(...started);
  services = { shortener: started[0]!, images: started[1]!, thumbs: started[2]! };
  const workerMetricsPort = await freePort();
  procs.push(
    startWorker('worker', { ...env, WORKER_METRICS_PORT: String(workerMetricsPort), METRICS_HOST: '127.0.0.1' }),
  );

  dataDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-prometheus-'));
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  await writeFile(
    path.join(dataDir, 'prometheus.yml'),
    prometheusConfig({
      services: started.map((service) => new URL(service.metricsUrl).host),
      worker: `127.0.0.1:${workerMetricsPort}`,
    }),
  );
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dataDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dataDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
  prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${prometheusUrl}/-/ready`).catch(() => undefined);
    if (ready?.ok) break;
    if (prometheus.exitCode !== null || Date.now() > deadline) throw new Error(`prometheus did not start:\n${logs()}`);
    await sleep(200);
  }
}, 180_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await Promise.all(procs.map((proc) => proc.stop()));
  await receiver?.close();
  await board?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await ctx?.cleanup();
});

/** One round of traffic through every service. */
async function loadRound(round: number): Promise<void> {
  const auth = { authorization: key, 'content-type': 'application/json' };
  const drain = (res: Response): Promise<unknown> => res.arrayBuffer();
  const created = await fetch(`${services.shortener.url}/create`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: `https://example.com/observe/${round}` }),
  });
  const code = ((await created.json()) as { data?: { code?: string } }).data?.code;
  if (code) await fetch(`${services.shortener.url}/${code}`, { redirect: 'manual' }).then(drain);
  await fetch(`${services.shortener.url}/no-such-code-${round}`, { redirect: 'manual' }).then(drain);
  // The limited key: one create a window, the rest refused with 429 (bucket shortener.create).
  for (let i = 0; i < 2; i++)
    await fetch(`${services.shortener.url}/create`, {
      method: 'POST',
      headers: { ...auth, authorization: limitedKey },
      body: JSON.stringify({ url: `https://example.com/limited/${round}/${i}` }),
    }).then(drain);
  await fetch(`${services.images.url}/furry/boop`, { headers: { authorization: key } }).then(drain);
  await fetch(`${services.images.url}/no-such-category`, { headers: { authorization: key } }).then(drain);
  // A new thumbnail each round, of each type in turn, its end POSTed to a receiver.
  const post = board.addPost({ id: 7000 + round, ext: 'png' }, await makePng(64 + round, 48));
  const type = (['png', 'gif', 'webp', 'mp4'] as const)[round % 4]!;
  const callback = receiver.url((['/ok', '/flaky', '/gone'] as const)[round % 3]);
  await fetch(`${services.thumbs.url}/${post.md5}/${type}?callbackURL=${encodeURIComponent(callback)}`, {
    method: 'PUT',
    headers: { authorization: key },
  }).then(drain);
  await fetch(`${services.thumbs.url}/check/${post.md5}/${type}`, { headers: { authorization: key } }).then(drain);
}

describe('a real Prometheus with infra/observability', () => {
  it('scrapes the three services and the worker', async () => {
    const deadline = Date.now() + 30_000;
    let targets: Array<{ labels: Record<string, string>; health: string; lastError: string }> = [];
    for (;;) {
      const res = (await (await fetch(`${prometheusUrl}/api/v1/targets`)).json()) as {
        data: { activeTargets: typeof targets };
      };
      targets = res.data.activeTargets;
      if (targets.length === 4 && targets.every((target) => target.health === 'up')) break;
      if (Date.now() > deadline) throw new Error(`targets: ${JSON.stringify(targets)}\n${logs()}`);
      await sleep(250);
    }
    const scraped = await query('count by (job, service) (process_start_time_seconds)');
    expect(scraped.status).toBe('success');
    expect(scraped.data!.result.map((r) => `${r.metric.job} ${r.metric.service}`).sort()).toEqual([
      'pawlink images',
      'pawlink shortener',
      'pawlink thumbs',
      'pawlink-worker thumbs-worker',
    ]);
  });

  it('answers every query of the dashboard with data after a short load', async () => {
    const started = Date.now();
    let round = 0;
    while (Date.now() - started < LOAD_MS) {
      await loadRound(round);
      round += 1;
    }
    // The last scrapes, and the end of the jobs and callbacks the load left running.
    await sleep(5000);
    const queries = await dashboardQueries();
    expect(queries.length).toBeGreaterThanOrEqual(20);
    const empty: string[] = [];
    let samples = 0;
    for (const { panel, expr } of queries) {
      const answer = await query(expr);
      expect(answer.status, `${panel}: ${expr}: ${answer.error}`).toBe('success');
      const values = answer.data!.result.map((sample) => Number(sample.value[1]));
      samples += values.length;
      // Data: at least one series with a number (a quantile of no requests is NaN, which Grafana leaves blank).
      if (!values.some((value) => Number.isFinite(value))) empty.push(`${panel}: ${expr}`);
    }
    process.stderr.write(
      `observability: ${queries.length} dashboard queries answered ${samples} series after ${round} load rounds in ${Date.now() - started} ms (load average ${os.loadavg()[0]!.toFixed(1)})\n`,
    );
    expect(empty, logs()).toEqual([]);
  });

  it('evaluates every shipped recording and alert rule without an error', async () => {
    const res = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as {
      data: { groups: Array<{ name: string; rules: Array<{ name: string; health: string; lastError?: string }> }> };
    };
    const rules = res.data.groups.flatMap((group) => group.rules);
    expect(rules).toHaveLength(18);
    expect(rules.filter((rule) => rule.health !== 'ok')).toEqual([]);
    // The recording rules have data from the load: error ratio, latency and the queue.
    for (const recorded of [
      'service:http_request_error_ratio:rate5m',
      'service_route:http_request_duration_seconds:p99_5m',
      'queue_state:thumbs_queue_jobs:max',
    ]) {
      const answer = await query(recorded);
      expect(answer.data!.result.length, recorded).toBeGreaterThan(0);
    }
  });
});
