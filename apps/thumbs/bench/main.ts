/**
 * `pnpm bench thumbs` (API half): the real thumbs service (dist/main.js) against its ceiling,
 * loaded by wrk from outside: `GET /check/:md5/:type` for 1,000 queued jobs (ceiling: node:http +
 * one Redis round trip; references: the contract's whole I/O, with and without Express). No
 * worker runs, so the jobs stay queued. The rendering benchmark is the worker's
 * (apps/thumbs-worker/bench).
 */
import { createHash } from 'node:crypto';
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
} from '@pawlink/bench';
import { thumbnailsDir } from '@pawlink/contracts';
import { createRedis } from '@pawlink/service-kit';
import { loadThumbsConfig } from '../src/config.js';
import { openThumbnailQueue } from '../src/repositories/thumbnail-queue.repository.js';
import type { CheckCeilingConfig } from './check-ceiling.js';

const JOBS = 1_000;
/** Requests in flight while the jobs are queued (the measured checks come from wrk). */
const SETUP_CONCURRENCY = 20;
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
/** The service as it ships: the app's own build, not the bench's. */
const SERVICE_MAIN = appBuildFile(import.meta.url, 'main.js');

/** Queues a GIF job per md5 through `PUT /:md5/gif`, as clients do. */
async function queueJobs(baseUrl: string, key: string, md5s: readonly string[]): Promise<void> {
  await forEachConcurrently(md5s.length, SETUP_CONCURRENCY, async (i) => {
    const response = await fetch(`${baseUrl}/${md5s[i]}/gif`, { method: 'PUT', headers: { authorization: key } });
    const text = await response.text();
    if (response.status !== 202) throw new Error(`PUT answered ${response.status}: ${text}`);
  });
}

await runHttpBench('thumbs', async ({ defer, measure, log }) => {
  const sandbox = await createBenchSandbox();
  defer(() => sandbox.cleanup());
  const env = { ...process.env, ...sandbox.env };
  const config = loadThumbsConfig(env);
  const key = await createBenchKey(config.database, ['thumbs']);
  const thumbs = await startService('thumbs', SERVICE_MAIN, env);
  defer(thumbs.stop);

  log(`queueing ${JOBS.toLocaleString('en-US')} thumbnail jobs…`);
  const run = Date.now().toString(36);
  const md5s = Array.from({ length: JOBS }, (_, i) => createHash('md5').update(`bench:${run}:${i}`).digest('hex'));
  await queueJobs(thumbs.url, key, md5s);

  const redis = createRedis(config.redis, { name: 'thumbs-bench', forQueue: true });
  defer(() => redis.quit());
  const queue = openThumbnailQueue(redis, config.redis.prefix);
  defer(() => queue.close());
  const ceilingConfig: CheckCeilingConfig = {
    redisUrl: config.redis.url,
    jobKeyPrefix: queue.toKey(''),
    thumbsUrl: thumbs.url,
    defaultJobMs: config.thumbs.defaultJobMs,
  };
  const ceiling = await startCeiling('check ceiling', here('./check-ceiling.js'), ceilingConfig);
  defer(ceiling.stop);
  const framework = await startCeiling('check framework ceiling', here('./check-ceiling.js'), ceilingConfig, {
    framework: 'express',
  });
  defer(framework.stop);
  const references = await startContractReferences(
    'check',
    here('./check-ceiling.js'),
    {
      ...ceilingConfig,
      rateLimit: ceilingWindows('thumbs.check', config.redis.prefix),
      contractRead: { thumbsDir: thumbnailsDir(config.mediaDir) },
    } satisfies CheckCeilingConfig,
    `a stat of the file, the job's state and the queue's lengths (the service's script) and the rate-limit hit (the service's script), the two scripts sent in one write; the wait list read every 250 ms for the job's place`,
    defer,
  );

  await measure({
    endpoint: `GET /check/:md5/:type, queued job (${JOBS.toLocaleString('en-US')} jobs)`,
    ceiling: 'node:http + one Redis round trip (HGETALL of the BullMQ job hash)',
    target: { minRatio: 0.5 },
    pawlinkUrl: thumbs.url,
    ceilingUrl: ceiling.url,
    framework: { url: framework.url, target: { minRatio: 0.8 } },
    references,
    requests: md5s.map((md5) => ({ path: `/check/${md5}/gif`, headers: { Authorization: key } })),
  });
});
