import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { makeAnimatedGif, makeMp4, makePng, makeWebm, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { createDataSource, createRedis, loadBaseConfig, migrateDatabase } from '@pawlink/service-kit';
import {
  createTestContext,
  request,
  startNginx,
  startService,
  startWorker,
  type JsonResponse,
  type NodeProcess,
  type StartedNginx,
  type TestContext,
} from '@pawlink/test-kit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let ctx: TestContext;
let board: FakeBoard;
let nginx: StartedNginx;
let apiUrl: string;
let headers: Record<string, string>;
let env: Record<string, string>;
const procs: NodeProcess[] = [];

const posts: Record<string, { id: number; md5: string; animated: boolean }> = {};

beforeAll(async () => {
  ctx = await createTestContext('e2ethumbs');
  const base = loadBaseConfig(ctx.env);
  await migrateDatabase(base.database, authDatabase);
  const auth = createDataSource(base.database, { ...authDatabase, poolSize: 1 });
  await auth.initialize();
  const { key } = await new ApiKeyRepository(auth).create({
    name: 'e2e',
    contact: 'e2e@example.com',
    flags: ['thumbs'],
    rateLimitRoute: 0,
    rateLimitGlobal: 0,
  });
  await auth.destroy();
  headers = { authorization: key };

  board = await startFakeBoard();
  const media: Array<[string, number, string, Promise<Buffer>, boolean]> = [
    ['webm', 9101, 'webm', makeWebm(4, 640, 360), true],
    ['mp4', 9102, 'mp4', makeMp4(2, 360, 640), true],
    ['gif', 9103, 'gif', makeAnimatedGif(12, 400, 300), true],
    ['still', 9104, 'png', makePng(800, 600), false],
    // Bytes that are no video at all, under a video extension: the job must fail for good.
    ['corrupt', 9105, 'webm', Promise.resolve(randomBytes(4096)), false],
    ['slow', 9106, 'webm', makeWebm(2, 320, 240), true],
  ];
  for (const [label, id, ext, bytes, animated] of media) {
    const post = board.addPost({ id, ext }, await bytes);
    posts[label] = { id, md5: post.md5, animated };
  }

  await mkdir(`${ctx.mediaDir}/thumbs`, { recursive: true });
  nginx = await startNginx({ mediaDir: ctx.mediaDir });
  env = {
    ...ctx.env,
    LOG_LEVEL: 'warn',
    MEDIA_URL: `${nginx.baseUrl}/thumbs`,
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_REQUESTS_PER_SECOND: '10',
    WORKER_CONCURRENCY: '1',
    // the fake board listens on loopback: the workers may download from it there
    THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(board.staticUrl).host,
  };
  // Two worker processes share the queue.
  procs.push(startWorker('worker-1', env), startWorker('worker-2', env));
  const api = await startService('thumbs', env);
  procs.unshift(api);
  apiUrl = api.url;
});

afterAll(async () => {
  await Promise.all(procs.map((proc) => proc.stop()));
  await nginx?.stop();
  await board?.close();
  await ctx?.cleanup();
});

function logs(): string {
  return procs.map((p) => `--- ${p.name}\n${p.tail(4000)}`).join('\n');
}

/** PUT, then poll the check URL as the answers say, until the thumbnail is done. */
async function makeThumbnail(id: string, type: 'gif' | 'png' | 'webp' | 'mp4'): Promise<string> {
  const put = await request(`${apiUrl}/${id}/${type}`, { method: 'PUT', headers });
  if (put.status === 200) return put.body.url as string;
  expect(put.status, JSON.stringify(put.body)).toBe(202);
  expect(put.headers.get('location')).toBe(put.body.checkURL);
  expect(Number(put.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const deadline = Date.now() + 120_000;
  let wait = Math.min(put.body.time as number, 1000);
  for (;;) {
    await sleep(Math.max(100, wait));
    const check = await request(put.body.checkURL as string, { headers });
    if (check.status === 201) {
      expect(check.body.status).toBe('done');
      return check.body.url as string;
    }
    if (check.status !== 200)
      throw new Error(`check answered ${check.status} ${JSON.stringify(check.body)}\n${logs()}`);
    expect(check.body.status).toBe('processing');
    wait = Math.min(check.body.time as number, 1000);
    if (Date.now() > deadline) throw new Error(`thumbnail ${id}.${type} not done in time\n${logs()}`);
  }
}

/** Polls the check URL through 200 "processing" answers until the job ends otherwise; returns that answer. */
async function pollUntilEnded(checkURL: string): Promise<JsonResponse<any>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const check = await request(checkURL, { headers });
    if (check.status !== 200) return check;
    expect(check.body.status).toBe('processing');
    if (Date.now() > deadline) throw new Error(`job did not end in time\n${logs()}`);
    await sleep(200);
  }
}

async function fetchImage(
  url: string,
): Promise<{ bytes: Buffer; contentType: string | null; cacheControl: string | null }> {
  expect(url.startsWith(`${nginx.baseUrl}/thumbs/`)).toBe(true);
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return {
    bytes: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
  };
}

describe('thumbnail flow: API → queue → two workers → files served by nginx', () => {
  it.each(['webm', 'mp4', 'gif', 'still'])('makes a GIF, a PNG, a WebP and an MP4 for a %s post', async (label) => {
    const post = posts[label]!;
    // One post by its board id, the others by MD5 (upper-cased once: the API lower-cases it).
    const id = label === 'webm' ? String(post.id) : label === 'mp4' ? post.md5.toUpperCase() : post.md5;
    const [gifUrl, pngUrl, webpUrl] = await Promise.all([
      makeThumbnail(id, 'gif'),
      makeThumbnail(id, 'png'),
      makeThumbnail(id, 'webp'),
    ]);
    // after the others: a fourth post-id lookup at once would be over the key's share of the board budget (429 1069)
    const mp4Url = await makeThumbnail(id, 'mp4');
    expect(gifUrl).toBe(`${nginx.baseUrl}/thumbs/${post.md5}.gif`);
    expect(pngUrl).toBe(`${nginx.baseUrl}/thumbs/${post.md5}.png`);
    expect(webpUrl).toBe(`${nginx.baseUrl}/thumbs/${post.md5}.webp`);
    expect(mp4Url).toBe(`${nginx.baseUrl}/thumbs/${post.md5}.mp4`);

    const gif = await fetchImage(gifUrl);
    expect(gif.contentType).toBe('image/gif');
    expect(gif.cacheControl ?? '').toMatch(/max-age=\d{5,}/);
    const gifMeta = await sharp(gif.bytes, { animated: true }).metadata();
    expect(gifMeta.format).toBe('gif');
    if (post.animated) expect(gifMeta.pages ?? 1).toBeGreaterThan(1);
    expect(gifMeta.width).toBeLessThanOrEqual(320);
    expect(gifMeta.pageHeight ?? gifMeta.height).toBeLessThanOrEqual(320);

    const webp = await fetchImage(webpUrl);
    expect(webp.contentType).toBe('image/webp');
    const webpMeta = await sharp(webp.bytes, { animated: true }).metadata();
    expect(webpMeta.format).toBe('webp');
    expect(webpMeta.pages ?? 1).toBe(gifMeta.pages ?? 1);
    expect([webpMeta.width, webpMeta.pageHeight ?? webpMeta.height]).toEqual([
      gifMeta.width,
      gifMeta.pageHeight ?? gifMeta.height,
    ]);

    const mp4 = await fetchImage(mp4Url);
    expect(mp4.contentType).toBe('video/mp4');
    expect(mp4.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const png = await fetchImage(pngUrl);
    expect(png.contentType).toBe('image/png');
    const pngMeta = await sharp(png.bytes).metadata();
    expect(pngMeta.format).toBe('png');
    expect(Math.max(pngMeta.width, pngMeta.height)).toBeLessThanOrEqual(320);
    await sharp(png.bytes).raw().toBuffer();

    const again = await request(`${apiUrl}/${post.md5}/png`, { method: 'PUT', headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, status: 'done', url: pngUrl });
    const info = await request(`${apiUrl}/${id}`, { headers });
    expect(info.body).toEqual({
      success: true,
      gifURL: gifUrl,
      pngURL: pngUrl,
      webpURL: webpUrl,
      mp4URL: mp4Url,
      thumbhash: expect.stringMatching(/^[A-Za-z0-9+/]{6,}={0,2}$/),
    });
  });

  it('reports a post the board does not know as a client error (404 1068) on check and on a repeated PUT, not as a failure of ours', async () => {
    const md5 = 'f'.repeat(32);
    const put = await request(`${apiUrl}/${md5}/gif`, { method: 'PUT', headers });
    expect(put.status).toBe(202);
    const check = await pollUntilEnded(put.body.checkURL as string);
    expect(check.status, JSON.stringify(check.body)).toBe(404);
    expect(check.body).toEqual({ success: false, code: 1068, error: 'The post was not found on the board.' });
    const putAgain = await request(`${apiUrl}/${md5}/gif`, { method: 'PUT', headers });
    expect(putAgain.status).toBe(404);
    expect(putAgain.body).toEqual({ success: false, code: 1068, error: 'The post was not found on the board.' });
  });

  it('reports a corrupt file as a failed job (500 1060) with a readable reason, without retrying it', async () => {
    const post = posts.corrupt!;
    const put = await request(`${apiUrl}/${post.id}/png`, { method: 'PUT', headers });
    expect(put.status).toBe(202);
    expect(put.body.md5).toBe(post.md5);
    const check = await pollUntilEnded(put.body.checkURL as string);
    expect(check.status, JSON.stringify(check.body)).toBe(500);
    expect(check.body).toMatchObject({ success: false, status: 'error', code: 1060 });
    expect(check.body.error).not.toMatch(/\/tmp\/|pawlink-thumb-|\bat \w+ \(/);
    // one fixed reason per failure class: ffmpeg's words stay in the worker's log
    expect(check.body.error).toBe('the file is not a readable image or video');
    const downloads = board.requests.filter((r) => r.path.includes(`/${post.md5}.webm`));
    expect(downloads).toHaveLength(1);
    const info = await request(`${apiUrl}/${post.md5}`, { headers });
    expect(info.body).toEqual({
      success: true,
      gifURL: null,
      pngURL: null,
      webpURL: null,
      mp4URL: null,
      thumbhash: null,
    });
  });

  it("the API process records the finished jobs' durations for its estimates", async () => {
    // The jobs of the tests above have finished; the API's QueueEvents listener saw them.
    const redis = createRedis(loadBaseConfig(ctx.env).redis);
    try {
      const key = `${ctx.redisPrefix}thumbs:durations`;
      const deadline = Date.now() + 15_000;
      while ((await redis.llen(key)) < 8 && Date.now() < deadline) await sleep(100);
      const durations = (await redis.lrange(key, 0, -1)).map(Number);
      expect(durations.length).toBeGreaterThanOrEqual(8);
      expect(durations.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
    } finally {
      redis.disconnect();
    }
  });
});

describe('a job past its time budget', () => {
  it('is reported as a timeout (408 1065) on check and PUT, and leaves no file', async () => {
    // Only a worker with a 1.5 s budget is left, and the board holds every download for 5 s.
    for (const proc of procs.filter((p) => p.name.startsWith('worker-'))) expect(await proc.stop()).toBe(0);
    procs.push(startWorker('worker-hasty', { ...env, THUMBS_JOB_TIMEOUT_MS: '1500' }));
    board.setMediaDelay(5_000);
    try {
      const post = posts.slow!;
      const put = await request(`${apiUrl}/${post.md5}/gif`, { method: 'PUT', headers });
      expect(put.status).toBe(202);
      const check = await pollUntilEnded(put.body.checkURL as string);
      expect(check.status, JSON.stringify(check.body)).toBe(408);
      expect(check.body).toMatchObject({ success: false, status: 'timeout', code: 1065 });
      const putAgain = await request(`${apiUrl}/${post.md5}/gif`, { method: 'PUT', headers });
      expect(putAgain.status).toBe(408);
      expect(putAgain.body.code).toBe(1065);
      const info = await request(`${apiUrl}/${post.md5}`, { headers });
      expect(info.body).toEqual({
        success: true,
        gifURL: null,
        pngURL: null,
        webpURL: null,
        mp4URL: null,
        thumbhash: null,
      });
    } finally {
      board.setMediaDelay(0);
    }
  });
});
