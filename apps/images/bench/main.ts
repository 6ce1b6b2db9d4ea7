/**
 * `pnpm bench images`: the real images service (dist/main.js) against its ceilings, loaded by wrk
 * from outside: random images `GET /<category>` as JSON with a key and anonymous, and
 * `GET /images/:id.json` (ceilings: node:http + one Redis round trip); then the flatness of
 * random picks, 1k against 1M images (BENCH_ROWS sets the large size).
 *
 * Anonymous requests are rate limited per client address with the production limits. The service
 * runs with TRUST_PROXY=1, as behind a load balancer, and each request names one of
 * ANONYMOUS_CLIENTS addresses in X-Forwarded-For: every request is counted, none is refused.
 */
import { fileURLToPath } from 'node:url';
import {
  appBuildFile,
  ceilingWindows,
  createBenchSandbox,
  createBenchKey,
  runHttpBench,
  startCeiling,
  startContractReferences,
  startService,
  type WrkRequest,
} from '@pawlink/bench';
import { createRedis, databaseName, migrateDatabase } from '@pawlink/service-kit';
import mysql from 'mysql2/promise';
import { loadImagesConfig } from '../src/config.js';
import { imagesDatabase } from '../src/db/images.database.js';
import { RecordCacheRepository } from '../src/repositories/record-cache.repository.js';
import { SizeIndexRepository } from '../src/repositories/size-index.repository.js';
import type { RecordCeilingConfig } from './cached-record.js';
import { measureFlatness } from './flatness.js';
import type { RandomCeilingConfig } from './random-ceiling.js';
import { seedCategory, type SeededCategory } from './seed.js';

const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_ROWS ?? 1_000_000);
/** The random-image comparison cycles through these; the flatness compares the first with `bench.large`. */
const SMALL_CATEGORIES = ['bench.one', 'bench.two', 'bench.three'];
const LARGE_CATEGORY = 'bench.large';
/**
 * Client addresses of the anonymous run: at the production 300 requests a minute per address,
 * enough for 40,000 req/s without a 429.
 */
const ANONYMOUS_CLIENTS = 8192;
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
/** The service as it ships: the app's own build, not the bench's. */
const SERVICE_MAIN = appBuildFile(import.meta.url, 'main.js');

const SECTIONS = ['random-key', 'random-anonymous', 'info', 'flatness'] as const;
type Section = (typeof SECTIONS)[number];

/** BENCH_IMAGES_SECTIONS picks what runs (comma-separated; default: all of SECTIONS), e.g. to profile one endpoint. */
function selectedSections(raw = process.env.BENCH_IMAGES_SECTIONS ?? SECTIONS.join(',')): Set<Section> {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names)
    if (!(SECTIONS as readonly string[]).includes(name))
      throw new Error(`BENCH_IMAGES_SECTIONS: unknown section "${name}" (known: ${SECTIONS.join(', ')})`);
  return new Set(names as Section[]);
}

const sections = selectedSections();

const clientAddress = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

await runHttpBench('images', async (context) => {
  const { defer, measure, log } = context;
  if (!Number.isInteger(LARGE) || LARGE < SMALL)
    throw new Error(`BENCH_ROWS must be a whole number of at least ${SMALL}`);
  const sandbox = await createBenchSandbox();
  defer(() => sandbox.cleanup());
  const env = { ...process.env, ...sandbox.env, TRUST_PROXY: '1' };
  const config = loadImagesConfig(env);
  await migrateDatabase(config.database, imagesDatabase);
  const key = await createBenchKey(config.database, ['images_bulk']);

  log(
    `filling ${SMALL_CATEGORIES.length} categories of ${SMALL.toLocaleString('en-US')} images and one of ${LARGE.toLocaleString('en-US')}…`,
  );
  const redis = createRedis(config.redis, { name: 'images-bench' });
  defer(() => redis.quit());
  const repositories = {
    sizeIndex: new SizeIndexRepository(redis, config.redis.prefix),
    records: new RecordCacheRepository(redis, config.redis.prefix),
  };
  const { host, port, user, password } = config.database;
  const connection = await mysql.createConnection({
    host,
    port,
    user,
    password,
    database: databaseName(config.database, imagesDatabase.name),
  });
  // Rows arrive in key order and the table has no foreign keys: skip the checks for the bulk load.
  await connection.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  const seeded: SeededCategory[] = [];
  try {
    for (const [db, count] of [
      ...SMALL_CATEGORIES.map((db) => [db, SMALL] as const),
      [LARGE_CATEGORY, LARGE] as const,
    ]) {
      const category = await seedCategory(connection, repositories, db, count);
      log(
        `  ${db}: ${count.toLocaleString('en-US')} rows, MySQL ${category.mysqlSeconds.toFixed(1)} s, Redis ${category.redisSeconds.toFixed(1)} s`,
      );
      seeded.push(category);
    }
  } finally {
    await connection.end();
  }

  const images = await startService('images', SERVICE_MAIN, env);
  defer(images.stop);
  // the record cache's key, as RecordCacheRepository names it
  const recordsKey = `${config.redis.prefix}{images}:records`;
  const recordCeiling: RecordCeilingConfig = {
    redisUrl: config.redis.url,
    recordsKey,
    imagesMediaUrl: config.urls.imagesMedia,
  };
  const categories = seeded.map((c) => c.db);
  const randomConfig: RandomCeilingConfig = {
    ...recordCeiling,
    indexKeys: Object.fromEntries(categories.map((db) => [db, repositories.sizeIndex.key(db)])),
  };
  const randomCeiling = await startCeiling('random ceiling', here('./random-ceiling.js'), randomConfig);
  defer(randomCeiling.stop);
  const randomFramework = await startCeiling('random framework ceiling', here('./random-ceiling.js'), randomConfig, {
    framework: 'express',
  });
  defer(randomFramework.stop);
  const randomReferences = await startContractReferences(
    'random',
    here('./random-ceiling.js'),
    { ...randomConfig, rateLimit: ceilingWindows('images.random', config.redis.prefix) },
    `the pick and the rate-limit hit (the service's script), sent in one write`,
    defer,
  );
  const infoCeiling = await startCeiling('image info ceiling', here('./image-info-ceiling.js'), recordCeiling);
  defer(infoCeiling.stop);
  const infoFramework = await startCeiling(
    'image info framework ceiling',
    here('./image-info-ceiling.js'),
    recordCeiling,
    { framework: 'express' },
  );
  defer(infoFramework.stop);
  const infoReferences = await startContractReferences(
    'image info',
    here('./image-info-ceiling.js'),
    { ...recordCeiling, rateLimit: ceilingWindows('images.info', config.redis.prefix) },
    `the HGET and the rate-limit hit (the service's script), sent in one write`,
    defer,
  );

  const randomTarget = { minRatio: 0.5, maxP99Ratio: 2 };
  const frameworkTarget = { minRatio: 0.8 };
  const randomCeilingLabel =
    'node:http + one Redis round trip (Lua: ZRANDMEMBER on the size index + HGET of the record)';
  if (sections.has('random-key')) {
    await measure({
      endpoint: 'GET /<category> JSON, key',
      ceiling: randomCeilingLabel,
      target: randomTarget,
      pawlinkUrl: images.url,
      ceilingUrl: randomCeiling.url,
      framework: { url: randomFramework.url, target: frameworkTarget },
      references: randomReferences,
      requests: categories.map((db) => ({ path: `/${db}`, headers: { Authorization: key } })),
    });
  }
  const anonymous: WrkRequest[] = Array.from({ length: ANONYMOUS_CLIENTS }, (_, i) => ({
    path: `/${categories[i % categories.length]}`,
    headers: { 'X-Forwarded-For': clientAddress(i) },
  }));
  if (sections.has('random-anonymous')) {
    await measure({
      endpoint: 'GET /<category> JSON, anonymous',
      ceiling: randomCeilingLabel,
      target: randomTarget,
      pawlinkUrl: images.url,
      ceilingUrl: randomCeiling.url,
      framework: { url: randomFramework.url, target: frameworkTarget },
      references: randomReferences,
      requests: anonymous,
    });
  }
  const ids = seeded.flatMap((c) => c.sample.slice(0, 250));
  if (sections.has('info')) {
    await measure({
      endpoint: 'GET /images/:id.json, key',
      ceiling: 'node:http + one Redis round trip (HGET of the record)',
      target: { minRatio: 0.5 },
      pawlinkUrl: images.url,
      ceilingUrl: infoCeiling.url,
      framework: { url: infoFramework.url, target: frameworkTarget },
      references: infoReferences,
      requests: ids.map((id) => ({ path: `/images/${id}.json`, headers: { Authorization: key } })),
    });
  }

  if (!sections.has('flatness')) return;
  const sampleOf = (db: string): string[] => seeded.find((c) => c.db === db)?.sample ?? [];
  await measureFlatness(context, {
    url: images.url,
    key,
    small: { db: SMALL_CATEGORIES[0]!, count: SMALL, sample: sampleOf(SMALL_CATEGORIES[0]!) },
    large: { db: LARGE_CATEGORY, count: LARGE, sample: sampleOf(LARGE_CATEGORY) },
  });
});
