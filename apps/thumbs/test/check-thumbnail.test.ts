import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { THUMBNAIL_TYPES, thumbnailJobId } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_URL, md5For, startThumbs, THUMBS_URL, waitFor, type ThumbsHarness } from './helpers.js';

let h: ThumbsHarness;
beforeAll(async () => {
  h = await startThumbs();
});
afterAll(async () => {
  await h?.close();
});

const check = (a: string, b: string, headers: Record<string, string> = h.auth) =>
  request(`${h.url}/check/${a}/${b}`, { headers });
const put = (id: string, type: string) => request(`${h.url}/${id}/${type}`, { method: 'PUT', headers: h.auth });

describe('GET /check/:md5/:type', () => {
  it('requires a key with the thumbs flag', async () => {
    const md5 = md5For('auth');
    const none = await check(md5, 'gif', {});
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(1013);
    const withoutFlag = await check(md5, 'gif', { authorization: h.keyWithoutFlag });
    expect(withoutFlag.status).toBe(403);
    expect(withoutFlag.body.code).toBe(1022);
  });

  it('validates the MD5 (1063) and the type (1064)', async () => {
    const cases: Array<[string, string, number]> = [
      ['abc', 'gif', 1063],
      ['12345', 'png', 1063],
      ['gif', 'png', 1063],
      [md5For('type'), 'jpg', 1064],
      ['avif', md5For('type'), 1064],
      [md5For('type'), 'WEBP', 1064],
      [md5For('type'), 'MP4', 1064],
    ];
    for (const [a, b, code] of cases) {
      const res = await check(a, b);
      expect(res.status, `${a}/${b}`).toBe(404);
      expect(res.body, `${a}/${b}`).toMatchObject({ success: false, code });
    }
  });

  it('answers 404 1066 when there is neither a job nor a file', async () => {
    const res = await check(md5For('missing'), 'gif');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 1066 });
  });

  it.each(THUMBNAIL_TYPES)('answers 201 done when the %s file exists, in either segment order', async (type) => {
    const md5 = md5For('done');
    await h.writeThumbnail(md5, type);
    for (const [a, b] of [
      [md5, type],
      [type, md5.toUpperCase()],
    ] as const) {
      const res = await check(a, b);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ success: true, status: 'done', url: `${MEDIA_URL}/${md5}.${type}` });
    }
  });

  it('answers 503 1003 in read-only mode', async () => {
    const md5 = md5For('ro');
    await h.writeThumbnail(md5, 'png');
    await h.setReadOnly(true);
    try {
      const res = await check(md5, 'png');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 1003 });
    } finally {
      await h.setReadOnly(false);
    }
  });

  it.each(THUMBNAIL_TYPES)('follows a %s job: queued, then running with progress, then done', async (type) => {
    const md5 = md5For('flow');
    expect((await put(md5, type)).status).toBe(202);

    const queued = await check(type, md5);
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({
      success: true,
      status: 'processing',
      md5,
      checkURL: `${THUMBS_URL}/check/${md5}/${type}`,
      progress: 0,
    });
    const queuedAt = (await h.queue.getJob(thumbnailJobId(md5, type)))?.timestamp;
    expect(queued.body.startedAt).toBe(queuedAt);
    expect(queued.body.checkAt).toBeGreaterThan(Date.now() - 1000);
    expect(queued.headers.get('retry-after')).toBe(String(Math.ceil(queued.body.time / 1000)));

    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const worker = h.startWorker(async (job) => {
      await job.updateProgress(40);
      await gate;
      await mkdir(path.join(h.ctx.mediaDir, 'thumbs'), { recursive: true });
      await writeFile(path.join(h.ctx.mediaDir, 'thumbs', `${job.data.md5}.${job.data.type}`), 'png bytes');
      return { ok: true };
    });

    const running = await waitFor(async () => {
      const res = await check(md5, type);
      return res.body.progress === 40 ? res : undefined;
    });
    expect(running.status).toBe(200);
    expect(running.body.status).toBe('processing');
    // Still the time it was queued, not the time a worker took it.
    expect(running.body.startedAt).toBe(queuedAt);
    expect(running.body.time).toBeGreaterThan(0);

    release();
    const done = await waitFor(async () => {
      const res = await check(md5, type);
      return res.status === 201 ? res : undefined;
    });
    expect(done.body).toEqual({ success: true, status: 'done', url: `${MEDIA_URL}/${md5}.${type}` });
    await waitFor(async () => ((await h.queue.getJob(thumbnailJobId(md5, type)))?.finishedOn ? true : undefined));
    // the next case's job is for its own worker
    await worker.close();
  });

  it('applies the thumbs.check rate limit bucket', async () => {
    const limited = await h.newKey(['thumbs'], { rateLimitRoute: 1 });
    const md5 = md5For('limit');
    expect((await check(md5, 'gif', { authorization: limited })).status).toBe(404);
    const res = await check(md5, 'gif', { authorization: limited });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-ratelimit-bucket')).toBe('thumbs.check');
  });
});
