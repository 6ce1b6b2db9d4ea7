import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, freePort, processEnv, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killPawlink, startPawlink, stopPawlink, type StartRun } from '../support/npm-start.js';

/**
 * `npm start` stopped as a service manager or a shell script stops it, right after visits and a
 * key's usage were counted (in memory, not yet flushed): by one SIGTERM to its whole process group,
 * or by two of them 50 ms apart. After each restart every visit and every request of the key is
 * there. Twenty stops on one data directory, database and Redis prefix of the test's own; only the
 * first start bootstraps (PAWLINK_BOOTSTRAP=skip for the restarts), so a cycle costs a start of the
 * services and a stop.
 */

const STOPS = 20;
const VISITS_PER_STOP = 3;
const IMAGES_PER_STOP = 2;
// A person's browser: a visit by a bot (node's fetch says "node") is not counted.
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

let ctx: TestContext;
let dataDir: string;
let env: Record<string, string>;
const runs: StartRun[] = [];

async function start(restart: boolean): Promise<StartRun> {
  const run = await startPawlink('npm', ['start'], restart ? { ...env, PAWLINK_BOOTSTRAP: 'skip' } : env);
  runs.push(run);
  return run;
}

async function json(url: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { headers: { Authorization: key } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The key's requests to `GET /:category` on the images service, summed over the days `GET /status` shows. */
async function imageRequests(key: string): Promise<number> {
  const { body } = await json(`${env.IMAGES_URL}/status`, key);
  const usage = (body.data as { usage: { days: { routes: Record<string, number> }[] } }).usage;
  return usage.days.reduce((sum, day) => sum + (day.routes['GET /:category'] ?? 0), 0);
}

async function visitsOf(code: string, key: string): Promise<number> {
  const { status, body } = await json(`${env.SHORTENER_URL}/${code}/stats`, key);
  expect(status).toBe(200);
  return (body.data as { visits: number }).visits;
}

beforeAll(async () => {
  ctx = await createTestContext('e2estop');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-stop-data-'));
  const port = async (): Promise<string> => String(await freePort());
  const [shortener, images, thumbs, media, ...metrics] = await Promise.all(Array.from({ length: 7 }, port));
  env = processEnv({
    ...ctx.env,
    LOG_LEVEL: 'warn',
    PAWLINK_DATA_DIR: dataDir,
    SHORTENER_PORT: shortener!,
    IMAGES_PORT: images!,
    THUMBS_PORT: thumbs!,
    MEDIA_PORT: media!,
    SHORTENER_METRICS_PORT: metrics[0]!,
    IMAGES_METRICS_PORT: metrics[1]!,
    THUMBS_METRICS_PORT: metrics[2]!,
    METRICS_HOST: '127.0.0.1',
    SHORTENER_URL: `http://127.0.0.1:${shortener}`,
    IMAGES_URL: `http://127.0.0.1:${images}`,
    THUMBS_URL: `http://127.0.0.1:${thumbs}`,
    MEDIA_URL: `http://127.0.0.1:${media}/thumbs`,
    IMAGES_MEDIA_URL: `http://127.0.0.1:${media}/images`,
    BOARD_URL: 'http://127.0.0.1:9',
    BOARD_STATIC_URL: 'http://127.0.0.1:9',
    WORKERS: '1',
    // The stop's first 200 ms still answer (the last call), as by default they do for 1 s.
    SHUTDOWN_LAST_CALL_MS: '200',
    DB_CONNECT_TIMEOUT_MS: '15000',
    DB_QUERY_TIMEOUT_MS: '15000',
    REDIS_CONNECT_TIMEOUT_MS: '15000',
    // The worker's first commands too (a loaded CI machine timed one out at the 1 s default).
    REDIS_COMMAND_TIMEOUT_MS: '15000',
  });
});

afterAll(async () => {
  killPawlink(runs);
  await rm(dataDir, { recursive: true, force: true });
  await ctx?.cleanup();
});

describe('npm start stopped right after counting', () => {
  it(`keeps every visit and every request of a key over ${STOPS} stops: a group SIGTERM, or two 50 ms apart`, async () => {
    let run = await start(false);
    const key = run.demoKey;
    const created = await fetch(`${env.SHORTENER_URL}/create`, {
      method: 'POST',
      headers: { Authorization: key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/stop-test' }),
    });
    expect(created.status).toBe(201);
    const { code } = ((await created.json()) as { data: { code: string } }).data;
    const categories = await json(`${env.IMAGES_URL}/categories`, key);
    const category = (categories.body.data as { enabled: { db: string }[] }).enabled[0]!.db;

    let visits = 0;
    let images = await imageRequests(key);
    const stops: { signals: number; code: number | null; visits: number; images: number }[] = [];
    for (let stop = 1; stop <= STOPS; stop++) {
      for (let i = 0; i < VISITS_PER_STOP; i++) {
        const res = await fetch(`${env.SHORTENER_URL}/${code}`, {
          redirect: 'manual',
          headers: { 'User-Agent': BROWSER },
        });
        expect(res.status).toBe(302);
        visits++;
      }
      for (let i = 0; i < IMAGES_PER_STOP; i++) {
        const res = await fetch(`${env.IMAGES_URL}/${category}?amount=1`, { headers: { Authorization: key } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        images++;
      }
      const signals = stop % 2 === 1 ? 1 : 2;
      const stopped = await stopPawlink(run, { group: true, signals, gapMs: 50 });
      expect(stopped.leftovers).toEqual([]);
      run = await start(true);
      // Read after the restart: only what the stop wrote to Redis and MySQL can be there.
      stops.push({ signals, code: stopped.code, visits: await visitsOf(code, key), images: await imageRequests(key) });
      expect(stops.at(-1), `stop ${stop} (${signals} SIGTERM)`).toEqual({
        signals,
        code: 0,
        visits,
        images,
      });
    }
    expect(stops).toHaveLength(STOPS);
    expect((await stopPawlink(run, { group: true })).leftovers).toEqual([]);
  }, 1_500_000);
});
