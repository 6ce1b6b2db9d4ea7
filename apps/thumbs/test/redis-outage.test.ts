import { loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, request, startTcpProxy, type TcpProxy } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_URL, md5For, startThumbs, type ThumbsHarness } from './helpers.js';

// The thumbs API with its Redis behind a proxy the test cuts: thumbnails on disk are still
// reported done; what needs the queue is answered 503 1004 at once; it all comes back alone.
let h: ThumbsHarness;
let proxy: TcpProxy;
beforeAll(async () => {
  const { env } = await createTestContext('thumbs-redis-target');
  const target = new URL(loadBaseConfig(env).redis.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  h = await startThumbs({ REDIS_URL: `redis://${proxy.host}:${proxy.port}` });
});
afterAll(async () => {
  proxy?.restore();
  await h?.close();
  await proxy?.close();
});

describe('while Redis is down', () => {
  it('answers from the files it can read, 503 1004 for what needs the queue, and recovers', async () => {
    const done = md5For('on-disk');
    const queued = md5For('needs-queue');
    await h.writeThumbnail(done, 'gif');
    expect((await request(`${h.url}/check/${done}/gif`, { headers: h.auth })).status).toBe(201);
    proxy.cut();
    try {
      const check = await request(`${h.url}/check/${done}/gif`, { headers: h.auth });
      expect([check.status, check.body]).toEqual([
        201,
        { success: true, status: 'done', url: `${MEDIA_URL}/${done}.gif` },
      ]);
      const put = await request(`${h.url}/${done}/gif`, { method: 'PUT', headers: h.auth });
      expect(put.status).toBe(200);
      const info = await request(`${h.url}/${done}`, { headers: h.auth });
      expect(info.body).toMatchObject({ success: true, gifURL: `${MEDIA_URL}/${done}.gif` });
      const needsQueue = await request(`${h.url}/${queued}/png`, { method: 'PUT', headers: h.auth });
      expect([needsQueue.status, needsQueue.body.code, needsQueue.headers.get('retry-after')]).toEqual([
        503,
        1004,
        '2',
      ]);
    } finally {
      proxy.restore();
    }
    await expect
      .poll(async () => (await request(`${h.url}/${queued}/png`, { method: 'PUT', headers: h.auth })).status, {
        timeout: 5000,
        interval: 100,
      })
      .toBe(202);
  });
});

describe('the queue dashboard while Redis is down', () => {
  it("answers its API 503 1004 with Retry-After, as every route does, not bull-board's 500, and recovers", async () => {
    const adminKey = await h.newKey(['admin']);
    const queues = () =>
      request(`${h.url}/admin/queues/api/queues`, { headers: { authorization: adminKey, accept: 'application/json' } });
    expect((await queues()).status).toBe(200);
    proxy.cut();
    try {
      const down = await queues();
      expect([down.status, down.body.code, down.headers.get('retry-after')]).toEqual([503, 1004, '2']);
    } finally {
      proxy.restore();
    }
    await expect.poll(async () => (await queues()).status, { timeout: 5000, interval: 100 }).toBe(200);
  });
});
