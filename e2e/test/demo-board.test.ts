import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import {
  admin,
  createTestContext,
  freePort,
  processEnv,
  REPO_ROOT,
  request,
  spawnNode,
  startService,
  startWorker,
  type NodeProcess,
  type TestContext,
} from '@pawlink/test-kit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The offline first run: the demo board process (`npm start -- --demo` runs the same), the thumbs
 * service and a worker with BOARD_URL=demo, and a demo post turned into a GIF.
 */

let ctx: TestContext;
let boardDir: string;
let apiUrl: string;
let shortenerUrl: string;
let boardPort: number;
let key: string;
let headers: Record<string, string>;
const procs: NodeProcess[] = [];

const logs = (): string => procs.map((p) => `--- ${p.name}\n${p.tail(3000)}`).join('\n');

beforeAll(async () => {
  ctx = await createTestContext('e2edemo');
  const base = loadBaseConfig(ctx.env);
  const migrated = await admin(ctx.env, ['migrate']);
  expect(migrated.code, migrated.stderr).toBe(0);
  const auth = createDataSource(base.database, { ...authDatabase, poolSize: 1 });
  await auth.initialize();
  ({ key } = await new ApiKeyRepository(auth).create({
    name: 'demo',
    contact: 'demo@example.com',
    flags: ['thumbs', 'shortener'],
    rateLimitRoute: 0,
    rateLimitGlobal: 0,
  }));
  await auth.destroy();
  headers = { authorization: key };

  boardDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-demo-board-'));
  boardPort = await freePort();
  const board = spawnNode('demo-board', 'packages/board/dist/demo/main.js', {
    DEMO_BOARD_PORT: String(boardPort),
    DEMO_BOARD_DIR: boardDir,
  });
  procs.push(board);
  // The first start makes the files (ffmpeg, sharp) before it listens.
  const deadline = Date.now() + 90_000;
  while (
    !(await request(`http://127.0.0.1:${boardPort}/posts/900000001.json`).then(
      (res) => res.status === 200,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || board.child.exitCode !== null) throw new Error(`demo board did not start\n${logs()}`);
    await sleep(200);
  }
  const env = { ...ctx.env, LOG_LEVEL: 'warn', BOARD_URL: 'demo', DEMO_BOARD_PORT: String(boardPort) };
  procs.push(startWorker('worker', env));
  const [api, shortener] = await Promise.all([startService('thumbs', env), startService('shortener', env)]);
  procs.push(api, shortener);
  apiUrl = api.url;
  shortenerUrl = shortener.url;
}, 150_000);

afterAll(async () => {
  await Promise.all(procs.map((proc) => proc.stop()));
  await rm(boardDir, { recursive: true, force: true });
  await ctx?.cleanup();
});

describe('BOARD_URL=demo', () => {
  it('serves the four demo posts with files made locally', async () => {
    const files: Record<number, string> = { 900000001: 'webm', 900000002: 'gif', 900000003: 'png', 900000004: 'mp4' };
    for (const [id, ext] of Object.entries(files)) {
      const info = await request(`${apiUrl}/${id}`, { headers });
      expect(info.status, JSON.stringify(info.body)).toBe(200);
      expect(info.body).toEqual({
        success: true,
        gifURL: null,
        pngURL: null,
        webpURL: null,
        mp4URL: null,
        thumbhash: null,
      });
      expect((await readFile(path.join(boardDir, `${id}.${ext}`))).length).toBeGreaterThan(100);
    }
  });

  it('turns the demo video into an animated GIF: PUT, check, done', async () => {
    const put = await request(`${apiUrl}/900000001/gif`, { method: 'PUT', headers });
    expect(put.status, JSON.stringify(put.body)).toBe(202);
    const md5 = put.body.md5 as string;
    expect(put.body.checkURL).toBe(`${apiUrl}/check/${md5}/gif`);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const check = await request(put.body.checkURL as string, { headers });
      if (check.status === 201) {
        expect(check.body).toMatchObject({ success: true, status: 'done' });
        break;
      }
      expect(check.status, `${JSON.stringify(check.body)}\n${logs()}`).toBe(200);
      if (Date.now() > deadline) throw new Error(`not done in time\n${logs()}`);
      await sleep(300);
    }
    const gif = await readFile(path.join(ctx.mediaDir, 'thumbs', `${md5}.gif`));
    expect(gif.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    const meta = await sharp(gif, { animated: true }).metadata();
    expect(meta.pages).toBeGreaterThan(1);
    const info = await request(`${apiUrl}/900000001`, { headers });
    expect(info.body.gifURL).toMatch(new RegExp(`/${md5}\\.gif$`));
  }, 150_000);

  it("runs the start banner's examples: a short link created and followed, the demo thumbnail PUT and check", async () => {
    const bannerEnv = {
      SHORTENER_URL: shortenerUrl,
      IMAGES_URL: 'http://127.0.0.1:9',
      THUMBS_URL: apiUrl,
      DEMO_KEY: key,
      BOARD_URL: 'demo',
      DEMO_BOARD_PORT: String(boardPort),
    };
    const sh = (command: string, env: Record<string, string> = {}) =>
      new Promise<string>((resolve, reject) => {
        execFile('bash', ['-c', command], { cwd: REPO_ROOT, env: processEnv(env) }, (error, stdout, stderr) =>
          error ? reject(new Error(`${command}: ${stderr}`)) : resolve(stdout),
        );
      });
    const lines = (await sh('node scripts/start-banner.mjs --examples', bannerEnv)).trim().split('\n');
    const examples = (service: string) =>
      lines.filter((line) => line.startsWith(`${service}\t`)).map((line) => line.slice(service.length + 1));
    expect(examples('images')).toHaveLength(1);

    const [follow] = examples('shortener');
    const redirect = await sh(follow ?? '');
    expect(redirect).toMatch(/^HTTP\/1\.1 302/);
    expect(redirect).toMatch(/location: https:\/\/example\.com\//i);

    const [put, check] = examples('thumbs');
    expect(put).toContain('/900000001/gif');
    // The GIF was made by the test above: the PUT says done, the check says done.
    expect(JSON.parse(await sh(put ?? ''))).toMatchObject({ success: true, status: 'done' });
    expect(JSON.parse(await sh(check ?? ''))).toMatchObject({ success: true, status: 'done' });
  }, 60_000);
});
