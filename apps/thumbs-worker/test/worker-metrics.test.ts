import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { makePng } from '@pawlink/board/testing';
import { thumbnailJobId } from '@pawlink/contracts';
import { freePort, request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, startWorkerHarness, waitForJob, workerEnv, type WorkerHarness } from './support.js';

/*
 * The built worker's metrics listener (WORKER_METRICS_PORT): what a render counted, readiness as a
 * gauge, in a text promtool accepts.
 */

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

let harness: WorkerHarness;
let worker: ChildProcess;
let metricsUrl: string;

/** The value of the sample `name{labels…}` in a scrape, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

beforeAll(async () => {
  harness = await startWorkerHarness('thumbsmetrics', { workers: [] });
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}`;
  worker = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      ...workerEnv(harness.ctx, harness.board, { WORKER_METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
});

afterAll(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) {
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
  await harness?.close();
});

describe('the worker’s /metrics', () => {
  it('counts a done and a failed render by type and outcome, the wait before each, and readiness', async () => {
    const post = harness.board.addPost({ id: 31, ext: 'png' }, await makePng(200, 120));
    const missing = randomBytes(16).toString('hex');
    await enqueue(harness.queue, post.md5, 'png');
    await enqueue(harness.queue, missing, 'webp');
    expect((await waitForJob(harness.queue, thumbnailJobId(post.md5, 'png'))).finishedOn).toBeDefined();
    expect((await waitForJob(harness.queue, thumbnailJobId(missing, 'webp'))).failedReason).toBe(
      'the post is not on the board',
    );
    const res = await request(`${metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    const text = res.text;
    const service = { service: 'thumbs-worker' };
    expect(sample(text, 'thumbs_job_duration_seconds_count', { ...service, type: 'png', outcome: 'done' })).toBe(1);
    expect(sample(text, 'thumbs_job_duration_seconds_count', { type: 'webp', outcome: 'notOnBoard' })).toBe(1);
    expect(sample(text, 'thumbs_job_wait_seconds_count', { type: 'png' })).toBe(1);
    expect(sample(text, 'thumbs_job_wait_seconds_count', { type: 'webp' })).toBe(1);
    expect(sample(text, 'pawlink_dependency_up', { dependency: 'redis' })).toBe(1);
    expect(sample(text, 'pawlink_dependency_up', { dependency: 'media' })).toBe(1);
    // The common series are there from the start, so a rate reads 0 before the first event.
    expect(sample(text, 'thumbs_callback_attempts_total', { outcome: 'delivered' })).toBe(0);
    expect(sample(text, 'thumbs_job_duration_seconds_count', { type: 'gif', outcome: 'done' })).toBe(0);
    expect(sample(text, 'thumbs_jobs_stalled_total', { queue: 'thumbs' })).toBe(0);
    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(promtool.error).toBeUndefined();
    expect(`${promtool.stdout}${promtool.stderr}`).toBe('');
    expect(promtool.status).toBe(0);
  });

  it('answers nothing else: 404 1024, and 405 1025 for another method', async () => {
    const other = await request(`${metricsUrl}/ready`);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, code: 1024 });
    const post = await request(`${metricsUrl}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.body).toMatchObject({ code: 1025 });
  });
});
