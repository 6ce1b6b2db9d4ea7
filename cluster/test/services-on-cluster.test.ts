import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import {
  admin,
  createKey,
  createTestContext,
  jsonInit,
  request,
  startService,
  startWorker,
  type NodeProcess,
  type ServiceProcess,
  type TestContext,
} from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster.js';

/*
 * The built services, a worker and bin/admin with REDIS_CLUSTER_NODES pointing at a local
 * 3-master Redis Cluster, and REDIS_URL at a port where nothing listens: every key, script, queue
 * and channel must work on the cluster, and nothing may fall back to a single Redis.
 */

let ctx: TestContext;
let workDir: string;
let cluster: LocalRedisCluster;
let board: FakeBoard;
let env: Record<string, string>;
let key: string;
let shortener: ServiceProcess;
let shortenerPeer: ServiceProcess;
let images: ServiceProcess;
let thumbs: ServiceProcess;
const procs: NodeProcess[] = [];
const imported: string[] = [];
let post: { id: number; md5: string };

const logs = (): string => procs.map((p) => `--- ${p.name}\n${p.tail(3000)}`).join('\n');

async function adminOk(args: string[]): Promise<string> {
  const result = await admin(env, args);
  if (result.code !== 0)
    throw new Error(`bin/admin ${args.join(' ')} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

beforeAll(async () => {
  ctx = await createTestContext('cluster');
  workDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-cluster-'));
  const files = path.join(workDir, 'import');
  // What does not depend on the cluster runs beside its start (redis-cli waits for the nodes to agree).
  const [started] = await Promise.all([
    startRedisCluster(workDir),
    (async () => {
      board = await startFakeBoard();
      post = board.addPost({ id: 7001, ext: 'png' }, await makePng(640, 480));
      await mkdir(files);
      for (let i = 0; i < 4; i++) await writeFile(path.join(files, `hug-${i}.png`), await makePng(40 + i, 30));
    })(),
    admin(ctx.env, ['migrate']).then((result) => expect(result.code, result.stderr).toBe(0)),
  ]);
  cluster = started;
  env = {
    ...ctx.env,
    REDIS_CLUSTER_NODES: cluster.seeds,
    REDIS_URL: 'redis://127.0.0.1:1',
    LOG_LEVEL: 'warn',
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_REQUESTS_PER_SECOND: '20',
    WORKER_CONCURRENCY: '1',
    THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(board.staticUrl).host,
  };
  [key] = await Promise.all([
    createKey(env, 'shortener,thumbs,images_bulk', [], 'cluster'),
    adminOk(['category', 'add', 'furry.hug', '--name', 'Furry > Hug']),
  ]);
  const report = await adminOk(['images', 'import', '--category', 'furry.hug', '--artist', 'Cluster Fox', files]);
  imported.push(...[...report.matchAll(/[0-9a-f]{32}/g)].map((m) => m[0]));

  // One after the other: each must answer /online within 30 s, also on a busy machine.
  procs.push((shortener = await startService('shortener', env)));
  procs.push((shortenerPeer = await startService('shortener', env, { label: 'shortener-2' })));
  // info: its connection's 'restored' line is checked below
  procs.push((images = await startService('images', { ...env, LOG_LEVEL: 'info' })));
  procs.push((thumbs = await startService('thumbs', env)), startWorker('worker', env));
});

afterAll(async () => {
  await Promise.all(procs.map((proc) => proc.stop()));
  await board?.close();
  await cluster?.stop();
  await ctx?.cleanup();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('shortener on a Redis Cluster', () => {
  it('creates, redirects, edits (the redirect follows the edit) and reads a short URL', async () => {
    const auth = { authorization: key };
    const created = await request(
      `${shortener.url}/create`,
      jsonInit('POST', { url: 'https://example.com/cluster-a', credit: 'Cluster Fox' }, auth),
    );
    expect(created.status, created.text).toBe(201);
    const { code, managementCode } = created.body.data as { code: string; managementCode: string };
    expect(created.headers.get('x-ratelimit-bucket')).toBe('shortener.create');

    const redirect = await request(`${shortener.url}/${code}`);
    expect([redirect.status, redirect.headers.get('location')]).toEqual([302, 'https://example.com/cluster-a']);

    const edited = await request(
      `${shortener.url}/${code}`,
      jsonInit('PATCH', { managementCode, url: 'https://example.com/cluster-b' }, auth),
    );
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.data).toMatchObject({ code, url: 'https://example.com/cluster-b' });
    const after = await request(`${shortener.url}/${code}`);
    expect([after.status, after.headers.get('location')]).toEqual([302, 'https://example.com/cluster-b']);

    const json = await request(`${shortener.url}/${code}.json`, { headers: auth });
    expect(json.body).toMatchObject({
      success: true,
      data: { code, url: 'https://example.com/cluster-b', credit: 'Cluster Fox' },
    });
  });

  it("an edit on one instance reaches the other instance's in-process cache through pub/sub on the cluster", async () => {
    const auth = { authorization: key };
    const created = await request(
      `${shortener.url}/create`,
      jsonInit('POST', { url: 'https://example.com/peer-a' }, auth),
    );
    expect(created.status, created.text).toBe(201);
    const { code, managementCode } = created.body.data as { code: string; managementCode: string };
    // the peer loads it (from the Redis cache) and keeps it in memory
    expect((await request(`${shortenerPeer.url}/${code}`)).headers.get('location')).toBe('https://example.com/peer-a');
    const edited = await request(
      `${shortener.url}/${code}`,
      jsonInit('PATCH', { managementCode, url: 'https://example.com/peer-b' }, auth),
    );
    expect(edited.status, edited.text).toBe(200);
    await expect
      .poll(async () => (await request(`${shortenerPeer.url}/${code}`)).headers.get('location'), {
        timeout: 5000,
        interval: 100,
      })
      .toBe('https://example.com/peer-b');
  });

  it('obeys the read-only switch set by bin/admin on the cluster, and lifts it', async () => {
    const create = () =>
      request(
        `${shortener.url}/create`,
        jsonInit('POST', { url: 'https://example.com/cluster-ro' }, { authorization: key }),
      );
    expect(await adminOk(['readonly', 'on', '--service', 'shortener'])).toContain('Read-only on for shortener');
    expect(await adminOk(['readonly', 'status'])).toMatch(/^shortener: on$/m);
    await expect.poll(async () => (await create()).body?.code, { timeout: 5000, interval: 100 }).toBe(1003);
    await adminOk(['readonly', 'off', '--service', 'shortener']);
    await expect.poll(async () => (await create()).status, { timeout: 5000, interval: 100 }).toBe(201);
  });
});

describe('images on a Redis Cluster', () => {
  it('picks distinct random images through the size index imported by bin/admin', async () => {
    expect(imported).toHaveLength(4);
    const res = await request(`${images.url}/furry.hug?amount=3`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-ratelimit-bucket')).toBe('images.random');
    const ids = (res.body.images as Array<{ id: string; artists: string[] }>).map((image) => image.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => imported.includes(id))).toBe(true);
    expect(res.body.images[0].artists).toEqual(['Cluster Fox']);

    const limited = await request(`${images.url}/furry/hug?sizeLimit=1GB`);
    expect(limited.status, limited.text).toBe(200);
  });

  it('counts the rate-limit hits of concurrent requests of several keys, each key on its own slot', async () => {
    const keys = await Promise.all(['rl-a', 'rl-b', 'rl-c'].map((name) => createKey(env, 'images_bulk', [], name)));
    const pick = (presented: string) => request(`${images.url}/furry.hug`, { headers: { authorization: presented } });
    // Sent together, so the service counts hits of different keys (hash tags) in one turn.
    const answers = await Promise.all(keys.flatMap((presented) => Array.from({ length: 10 }, () => pick(presented))));
    expect(
      answers.map((res) => res.status),
      `${answers.find((res) => res.status !== 200)?.text}\n${images.tail(3000)}`,
    ).toEqual(answers.map(() => 200));
    for (const presented of keys) {
      const next = await pick(presented);
      const limit = Number(next.headers.get('x-ratelimit-limit'));
      expect(limit).toBeGreaterThan(11);
      expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(limit - 11);
    }
    // Counted on the cluster, not by the in-process fallback.
    expect(images.tail(20_000)).not.toContain('rate limits counted in this process');
  });

  it('answers image info and a bulk request', async () => {
    const info = await request(`${images.url}/images/${imported[0]}.json`);
    expect(info.status, info.text).toBe(200);
    expect(info.body.data).toMatchObject({ id: imported[0], category: 'furry.hug' });

    const bulk = await request(`${images.url}/bulk`, jsonInit('POST', { 'furry.hug': 3 }, { authorization: key }));
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.data['furry.hug']).toHaveLength(3);
  });
});

describe('thumbnails on a Redis Cluster', () => {
  it('queues a job that the worker turns into a file, and check reports it done', async () => {
    const headers = { authorization: key };
    const put = await request(`${thumbs.url}/${post.id}/png`, { method: 'PUT', headers });
    expect(put.status, put.text).toBe(202);
    expect(put.body).toMatchObject({ status: 'processing', md5: post.md5 });
    const deadline = Date.now() + 45_000;
    for (;;) {
      const check = await request(put.body.checkURL as string, { headers });
      if (check.status === 201) {
        expect(check.body).toMatchObject({ success: true, status: 'done' });
        break;
      }
      expect(check.status, `${check.text}\n${logs()}`).toBe(200);
      if (Date.now() > deadline) throw new Error(`thumbnail not done in time\n${logs()}`);
      await sleep(200);
    }
    expect(existsSync(path.join(ctx.mediaDir, 'thumbs', `${post.md5}.png`))).toBe(true);
    const again = await request(`${thumbs.url}/${post.md5}/png`, { method: 'PUT', headers });
    expect([again.status, again.body.status]).toEqual([200, 'done']);

    const queue = await adminOk(['queue', 'status']);
    expect(queue).toMatch(/^completed: 1$/m);
    expect(queue).toMatch(/^workers: 1$/m);
  });
});

describe('the cluster itself', () => {
  it('holds the keys on more than one master', async () => {
    const counts = await cluster.keysPerNode();
    expect(counts.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
  });
});

describe('a master of the cluster going down', () => {
  it('fails the requests that need it with 503 1004, logs it once, and serves again once it is back', async () => {
    const node = await cluster.nodeFor('{images}');
    await cluster.kill(node);
    const down = await request(`${images.url}/furry.hug`);
    expect([down.status, down.body?.code], down.text).toEqual([503, 1004]);
    expect((await request(`${images.url}/furry.hug`)).status).toBe(503);

    await cluster.restart(node);
    // The restarted master is empty: the category's size index is rebuilt from MySQL.
    await expect
      .poll(async () => (await request(`${images.url}/furry.hug`)).status, { timeout: 30_000, interval: 200 })
      .toBe(200);
    // The process's master circuit says it, once down and once back; its connections say nothing more.
    const aboutNode = (message: string) =>
      images.lines.filter(
        (line) => line.includes(`"message":"${message}`) && line.includes(`"node":"127.0.0.1:${node.port}"`),
      );
    await expect
      .poll(() => aboutNode('redis cluster master answering again').length, { timeout: 10_000, interval: 100 })
      .toBe(1);
    expect(aboutNode('redis cluster master unavailable')).toHaveLength(1);
    expect(images.lines.filter((line) => line.includes('"message":"redis connection lost"'))).toEqual([]);
  });
});
