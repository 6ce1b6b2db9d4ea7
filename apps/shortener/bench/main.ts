/**
 * `pnpm bench shortener`: the real shortener (dist/main.js) against its ceilings, loaded by wrk
 * from outside: `GET /:code` redirects over 1,000 warm codes (ceiling: node:http + a Map) and
 * `POST /create` (ceiling: node:http + one MySQL INSERT). Private databases and Redis prefix,
 * removed at the end.
 *
 * BENCH_SHORTENER_ENDPOINTS picks the rows (comma-separated; default `redirect,create`):
 * `redirect` (visits counted: wrk sends no User-Agent, so every request is a person's visit),
 * `redirect-uncounted` (the counting shortener against a second one with SHORTENER_COUNT_VISITS=false,
 * interleaved on the same 250 codes: the ratio is what counting costs), `redirect-breakdown` (the
 * shortener tallying where visits came from against a second one with SHORTENER_VISIT_BREAKDOWN=false,
 * interleaved on the same 250 codes, each request with a browser's User-Agent, a Referer and an
 * X-Forwarded-For (TRUST_PROXY=1) from small rotating sets: the ratio is what the breakdown costs the
 * hot path), `create`,
 * `redirect-rules` (issue 38: 250 warm codes with 5 rules that never hold for these requests, so each
 * rule is evaluated at every visit, against the same codes without rules on a second shortener of
 * its own databases; browsers' User-Agent and Accept-Language rotating),
 * `redirect-before` (plain warm codes on this build against the build named by
 * BENCH_SHORTENER_BEFORE, a `dist/main.js` of another checkout, on the same databases: the ratio is
 * what a change cost the redirect of links without a password or rules),
 * `redirect-growth` (issue 37: a process after 200,000 creates, with 1,000,000 links in MySQL, against a
 * fresh one; see growth.ts).
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  appBuildFile,
  ceilingWindows,
  createBenchKey,
  createBenchSandbox,
  forEachConcurrently,
  runHttpBench,
  startCeiling,
  startContractReferences,
  startService,
  type WrkRequest,
} from '@pawlink/bench';
import { databaseName, migrateDatabase } from '@pawlink/service-kit';
import { loadShortenerConfig } from '../src/config.js';
import { shortenerDatabase } from '../src/db/shortener.database.js';
import { redirectCacheControl } from '../src/http/send-redirect.http.js';
import type { CreateCeilingConfig } from './create-ceiling.js';
import { measureGrowth } from './growth.js';
import type { RedirectCeilingConfig } from './redirect-ceiling.js';

const CODES = 1_000;
/** Codes of the counting-off comparison: each must be warmed through the per-IP lookup limit first. */
const UNCOUNTED_CODES = 250;
/** Browsers, referrers and addresses the breakdown comparison's requests rotate through (a few hundred distinct sources per code). */
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
];
const REFERERS = ['https://www.google.com/', 'https://t.co/abc', 'https://news.example.org/story/1', ''];
const ADDRESSES = ['8.8.8.8', '81.2.69.160', '2a00:1450:4001::1', '1.1.1.1', '185.60.216.35'];
/** Creates in flight while the codes are made (the measured creates come from wrk). */
const SETUP_CONCURRENCY = 20;
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
/** The service as it ships: the app's own build, not the bench's. */
const SERVICE_MAIN = appBuildFile(import.meta.url, 'main.js');

/** Creates `count` short urls through the API; answers their [code, url] pairs. */
async function createCodes(baseUrl: string, key: string, count: number): Promise<Array<[string, string]>> {
  const run = randomBytes(4).toString('hex');
  const targets: Array<[string, string]> = [];
  await forEachConcurrently(count, SETUP_CONCURRENCY, async (i) => {
    const url = `https://bench.example.com/${run}/${i}`;
    const response = await fetch(`${baseUrl}/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: key },
      body: JSON.stringify({ url }),
    });
    const body = (await response.json()) as { data?: { code: string; url: string } };
    if (response.status !== 201 || !body.data)
      throw new Error(`POST /create answered ${response.status}: ${JSON.stringify(body)}`);
    targets.push([body.data.code, body.data.url]);
  });
  return targets;
}

const ENDPOINTS = [
  'redirect',
  'redirect-uncounted',
  'redirect-breakdown',
  'create',
  'redirect-rules',
  'redirect-before',
  'redirect-growth',
] as const;

/** Five rules of every kind of condition, none of which holds for the bench's requests: each is evaluated at every visit. */
const NEVER_HOLDING_RULES = [
  { when: { os: 'chromeos' }, url: 'https://bench.example.com/rule/os' },
  { when: { language: 'ja' }, url: 'https://bench.example.com/rule/language' },
  { when: { country: 'JP', device: 'tablet' }, url: 'https://bench.example.com/rule/country' },
  { when: { query: { ref: 'bench' } }, url: 'https://bench.example.com/rule/query' },
  { when: { after: '2999-01-01T00:00:00Z' }, url: 'https://bench.example.com/rule/after' },
];
const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.5', 'fr-FR', 'es-ES,es;q=0.8'];

/** Creates the custom codes `codes` through the API, each with `extra` fields. */
async function createNamed(baseUrl: string, key: string, codes: string[], extra: Record<string, unknown>) {
  await forEachConcurrently(codes.length, SETUP_CONCURRENCY, async (i) => {
    const response = await fetch(`${baseUrl}/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: key },
      body: JSON.stringify({ code: codes[i], url: `https://bench.example.com/named/${codes[i]}`, ...extra }),
    });
    if (response.status !== 201) throw new Error(`POST /create answered ${response.status}: ${await response.text()}`);
  });
}
type Endpoint = (typeof ENDPOINTS)[number];

function selectedEndpoints(
  raw = process.env.BENCH_SHORTENER_ENDPOINTS ?? 'redirect,redirect-breakdown,create',
): Set<Endpoint> {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names)
    if (!(ENDPOINTS as readonly string[]).includes(name))
      throw new Error(`BENCH_SHORTENER_ENDPOINTS: unknown endpoint "${name}" (known: ${ENDPOINTS.join(', ')})`);
  return new Set(names as Endpoint[]);
}

const endpoints = selectedEndpoints();

await runHttpBench('shortener', async ({ defer, measure, workspace, log }) => {
  const sandbox = await createBenchSandbox();
  defer(() => sandbox.cleanup());
  const env = { ...process.env, ...sandbox.env };
  const config = loadShortenerConfig(env);
  await migrateDatabase(config.database, shortenerDatabase);
  const key = await createBenchKey(config.database, ['shortener']);
  const shortener = await startService('shortener', SERVICE_MAIN, env);
  defer(shortener.stop);
  // The URLs in answers (fullURL) come from SHORTENER_URL, which startService set to this port.
  const baseUrl = shortener.url;

  log(`creating ${CODES.toLocaleString('en-US')} short urls…`);
  const targets = await createCodes(baseUrl, key, CODES);
  const targetsFile = workspace.file('redirect-targets.json');
  await writeFile(targetsFile, JSON.stringify(targets));
  const redirectCeiling = await startCeiling('redirect ceiling', here('./redirect-ceiling.js'), {
    targetsFile,
    cacheControl: redirectCacheControl(config.shortener.redirectMaxAgeSeconds),
  } satisfies RedirectCeilingConfig);
  defer(redirectCeiling.stop);
  const redirects = targets.map(([code]) => ({ path: `/${code}` }));

  if (endpoints.has('redirect')) {
    await measure({
      endpoint: `GET /:code redirect (${CODES.toLocaleString('en-US')} warm codes, visits counted)`,
      ceiling: 'node:http + Map lookup, same status and headers',
      target: { minRatio: 0.8, maxP99Ratio: 1.5 },
      pawlinkUrl: baseUrl,
      ceilingUrl: redirectCeiling.url,
      requests: redirects,
    });
  }
  if (endpoints.has('redirect-uncounted')) {
    // The same shortener with SHORTENER_COUNT_VISITS=false as the "ceiling", interleaved with the
    // counting one: the ratio is what counting costs, measured under the same load.
    const uncounted = await startService('shortener', SERVICE_MAIN, { ...env, SHORTENER_COUNT_VISITS: 'false' });
    defer(uncounted.stop);
    // Warmed by one cold redirect each, within the per-IP lookup limit (300 a minute).
    const shared = redirects.slice(0, UNCOUNTED_CODES);
    for (const { path } of shared) await fetch(`${uncounted.url}${path}`, { redirect: 'manual' });
    await measure({
      endpoint: `GET /:code redirect (${UNCOUNTED_CODES} warm codes), visits counted vs not`,
      ceiling: 'the same shortener with SHORTENER_COUNT_VISITS=false',
      target: { minRatio: 0.9 },
      pawlinkUrl: baseUrl,
      ceilingUrl: uncounted.url,
      requests: shared,
    });
  }
  if (endpoints.has('redirect-breakdown')) {
    // Two fresh instances behind one trusted proxy (X-Forwarded-For names the visitor), the same codes warmed on each.
    const on = await startService('shortener', SERVICE_MAIN, {
      ...env,
      TRUST_PROXY: '1',
      SHORTENER_VISIT_BREAKDOWN: 'true',
    });
    defer(on.stop);
    const off = await startService('shortener', SERVICE_MAIN, {
      ...env,
      TRUST_PROXY: '1',
      SHORTENER_VISIT_BREAKDOWN: 'false',
    });
    defer(off.stop);
    const shared = redirects.slice(0, UNCOUNTED_CODES).map(({ path }, i) => {
      const headers: Record<string, string> = {
        'User-Agent': AGENTS[i % AGENTS.length]!,
        'X-Forwarded-For': ADDRESSES[i % ADDRESSES.length]!,
      };
      const referer = REFERERS[i % REFERERS.length]!;
      if (referer !== '') headers.Referer = referer;
      return { path, headers };
    });
    for (const { path } of shared)
      for (const instance of [on, off]) await fetch(`${instance.url}${path}`, { redirect: 'manual' });
    await measure({
      endpoint: `GET /:code redirect (${UNCOUNTED_CODES} warm codes, browsers, referrers, addresses), breakdown on vs off`,
      ceiling: 'the same shortener with SHORTENER_VISIT_BREAKDOWN=false',
      target: { minRatio: 0.95 },
      pawlinkUrl: on.url,
      ceilingUrl: off.url,
      requests: shared,
    });
  }
  if (endpoints.has('redirect-rules')) {
    // The same codes without rules on a second shortener with databases and Redis of its own.
    const plainSandbox = await createBenchSandbox();
    defer(() => plainSandbox.cleanup());
    const plainEnv = { ...process.env, ...plainSandbox.env };
    const plainConfig = loadShortenerConfig(plainEnv);
    await migrateDatabase(plainConfig.database, shortenerDatabase);
    const plainKey = await createBenchKey(plainConfig.database, ['shortener']);
    const plain = await startService('shortener', SERVICE_MAIN, plainEnv);
    defer(plain.stop);
    const run = randomBytes(4).toString('hex');
    const codes = Array.from({ length: UNCOUNTED_CODES }, (_, i) => `rules-${run}-${i}`);
    await createNamed(baseUrl, key, codes, { rules: NEVER_HOLDING_RULES });
    await createNamed(plain.url, plainKey, codes, {});
    const requests = codes.map((code, i) => ({
      path: `/${code}`,
      headers: { 'User-Agent': AGENTS[i % AGENTS.length]!, 'Accept-Language': LANGUAGES[i % LANGUAGES.length]! },
    }));
    await measure({
      endpoint: `GET /:code redirect (${UNCOUNTED_CODES} warm codes), 5 rules each evaluated vs none`,
      ceiling: 'the same codes without rules on a second shortener',
      target: { minRatio: 0.9 },
      pawlinkUrl: baseUrl,
      ceilingUrl: plain.url,
      requests,
    });
  }
  const before = process.env.BENCH_SHORTENER_BEFORE;
  if (endpoints.has('redirect-before')) {
    if (before === undefined) throw new Error('redirect-before needs BENCH_SHORTENER_BEFORE (a dist/main.js)');
    const previous = await startService('shortener', before, env);
    defer(previous.stop);
    // Warmed by one cold redirect each on the other build, within the per-IP lookup limit.
    const shared = redirects.slice(0, UNCOUNTED_CODES);
    for (const { path } of shared) await fetch(`${previous.url}${path}`, { redirect: 'manual' });
    await measure({
      endpoint: `GET /:code redirect (${UNCOUNTED_CODES} warm codes without password or rules), this build vs before`,
      ceiling: `the build of ${before}`,
      target: { minRatio: 0.97 },
      pawlinkUrl: baseUrl,
      ceilingUrl: previous.url,
      requests: shared,
    });
  }
  const { host, port, user, password } = config.database;
  const mysqlOfShortener = {
    host,
    port,
    user,
    password,
    database: databaseName(config.database, shortenerDatabase.name),
  };
  if (endpoints.has('redirect-growth'))
    // Last but create: its million links stay in the databases the create row then writes to.
    await measureGrowth({ defer, measure, log }, { mysql: mysqlOfShortener, main: SERVICE_MAIN, env, key });
  if (!endpoints.has('create')) return;

  const createConfig: CreateCeilingConfig = {
    mysql: mysqlOfShortener,
    baseUrl,
    // the pool service-kit gives every service DataSource
    poolSize: 10,
  };
  const createCeiling = await startCeiling('create ceiling', here('./create-ceiling.js'), createConfig);
  defer(createCeiling.stop);
  const createReferences = await startContractReferences(
    'create',
    here('./create-ceiling.js'),
    {
      ...createConfig,
      rateLimit: { ...ceilingWindows('shortener.create', config.redis.prefix), redisUrl: config.redis.url },
    } satisfies CreateCeilingConfig,
    `the INSERT and, meanwhile, the rate-limit hit (the service's script)`,
    defer,
  );

  const run = randomBytes(4).toString('hex');
  const creates: WrkRequest[] = Array.from({ length: CODES }, (_, i) => ({
    method: 'POST',
    path: '/create',
    headers: { 'Content-Type': 'application/json', Authorization: key },
    body: JSON.stringify({ url: `https://bench.example.com/create/${run}/${i}` }),
  }));
  await measure({
    endpoint: 'POST /create (key, editable)',
    ceiling: 'node:http + one MySQL INSERT (mysql2 pool of 10) of a short_urls row',
    target: { minRatio: 0.5 },
    pawlinkUrl: baseUrl,
    ceilingUrl: createCeiling.url,
    references: createReferences,
    requests: creates,
  });
});
