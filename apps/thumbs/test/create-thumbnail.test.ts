import { THUMBNAIL_TYPES, thumbnailJobId } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_URL, md5For, startThumbs, THUMBS_URL, type ThumbsHarness } from './helpers.js';

let h: ThumbsHarness;
beforeAll(async () => {
  h = await startThumbs();
});
afterAll(async () => {
  await h?.close();
});

const put = (id: string, type: string, headers: Record<string, string> = h.auth) =>
  request(`${h.url}/${id}/${type}`, { method: 'PUT', headers });

describe('PUT /:id/:type', () => {
  it('requires a key with the thumbs flag', async () => {
    const md5 = md5For('auth');
    expect((await put(md5, 'gif', {})).body).toMatchObject({ success: false, code: 1013 });
    const withoutFlag = await put(md5, 'gif', { authorization: h.keyWithoutFlag });
    expect(withoutFlag.status).toBe(403);
    expect(withoutFlag.body.code).toBe(1022);
    expect(await h.queue.getJob(thumbnailJobId(md5, 'gif'))).toBeUndefined();
  });

  it('validates the id, then the type', async () => {
    const cases: Array<[string, string, number]> = [
      ['abc', 'gif', 1063],
      ['d41d8cd98f00b204e9800998ecf8427', 'png', 1063],
      ['0', 'gif', 1062],
      ['99999999999999999999', 'gif', 1062],
      [md5For('type'), 'jpg', 1064],
      [md5For('type'), 'GIFS', 1064],
      [md5For('type'), 'WEBP', 1064],
      [md5For('type'), 'webm', 1064],
      [md5For('type'), 'MP4', 1064],
      ['abc', 'jpg', 1063],
    ];
    for (const [id, type, code] of cases) {
      const res = await put(id, type);
      expect(res.status, `${id}/${type}`).toBe(404);
      expect(res.body, `${id}/${type}`).toMatchObject({ success: false, code });
      if (code === 1064) expect(res.body.error).toBe('Invalid type; expected gif, png, webp or mp4.');
    }
    expect(await h.queue.count()).toBe(0);
  });

  it('refuses a body field with 400 1017 naming it (a callbackURL belongs in the query), queueing nothing; an empty JSON body is fine', async () => {
    const md5 = md5For('body-field');
    const res = await request(`${h.url}/${md5}/gif`, {
      method: 'PUT',
      headers: { ...h.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ callbackURL: 'https://example.com/hook' }),
    });
    expect([res.status, res.body.code]).toEqual([400, 1017]);
    expect(res.body.error).toContain('"callbackURL"');
    expect(await h.queue.count()).toBe(0);
    // What the official client sends: Content-Type: application/json and no body (or `{}`).
    const empty = await request(`${h.url}/${md5}/nope`, {
      method: 'PUT',
      headers: { ...h.auth, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(empty.body.code).toBe(1064);
  });

  it('answers 404 1062 for a post id unknown to the board, without queueing', async () => {
    const res = await put('7777777', 'gif');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1062);
  });

  it('answers 503 1003 in read-only mode', async () => {
    await h.setReadOnly(true);
    try {
      const md5 = md5For('ro');
      const res = await put(md5, 'gif');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 1003 });
      expect(await h.queue.getJob(thumbnailJobId(md5, 'gif'))).toBeUndefined();
    } finally {
      await h.setReadOnly(false);
    }
  });

  it.each(THUMBNAIL_TYPES)('answers 200 done when the %s file exists, without queueing', async (type) => {
    const md5 = md5For('done');
    await h.writeThumbnail(md5, type);
    const res = await put(md5.toUpperCase(), type);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, status: 'done', url: `${MEDIA_URL}/${md5}.${type}` });
    expect(await h.queue.getJob(thumbnailJobId(md5, type))).toBeUndefined();
  });

  it('answers 200 done for the png and webp a gif job wrote beside its gif, without queueing them', async () => {
    const md5 = md5For('one-decode');
    expect((await put(md5, 'gif')).status).toBe(202);
    // what the worker's gif job publishes: the png, the webp, then the gif
    for (const type of ['png', 'webp', 'gif'] as const) await h.writeThumbnail(md5, type);
    for (const type of ['png', 'webp'] as const) {
      const res = await put(md5, type);
      expect([res.status, res.body], type).toEqual([
        200,
        { success: true, status: 'done', url: `${MEDIA_URL}/${md5}.${type}` },
      ]);
      expect(await h.queue.getJob(thumbnailJobId(md5, type)), type).toBeUndefined();
    }
  });

  it.each(THUMBNAIL_TYPES)(
    'queues a %s job and answers 202 with the check URL, estimate and polling headers',
    async (type) => {
      const md5 = md5For('queue');
      const before = Date.now();
      const res = await put(md5, type);
      expect(res.status).toBe(202);
      const checkURL = `${THUMBS_URL}/check/${md5}/${type}`;
      expect(res.body).toMatchObject({ success: true, status: 'processing', md5, checkURL, progress: 0 });
      expect(Number.isInteger(res.body.startedAt)).toBe(true);
      expect(res.body.startedAt).toBeGreaterThanOrEqual(before);
      expect(res.body.time).toBeGreaterThan(0);
      expect(res.body.checkAt).toBeGreaterThanOrEqual(before + res.body.time);
      expect(res.body.checkAt).toBeGreaterThan(res.body.startedAt);
      expect(res.headers.get('location')).toBe(checkURL);
      expect(res.headers.get('retry-after')).toBe(String(Math.ceil(res.body.time / 1000)));

      const job = await h.queue.getJob(thumbnailJobId(md5, type));
      // startedAt is when the job was queued.
      expect(res.body.startedAt).toBe(job?.timestamp);
      expect(job?.name).toBe('generate-thumbnail');
      expect(job?.data).toMatchObject({ md5, type });
      expect(job?.data.postId).toBeUndefined();
      expect(job?.opts.removeOnFail).toEqual({ age: 3600 });

      const again = await put(md5, type);
      expect(again.status).toBe(202);
      expect(again.body.md5).toBe(md5);
      expect(again.body.startedAt).toBe(res.body.startedAt);
    },
  );

  it('tells every client the same integer startedAt while the job waits for a worker (15 concurrent PUTs, no worker running)', async () => {
    const md5 = md5For('same-start');
    const answers = await Promise.all(Array.from({ length: 15 }, () => put(md5, 'gif')));
    expect(answers.map((a) => a.status)).toEqual(Array(15).fill(202));
    const job = await h.queue.getJob(thumbnailJobId(md5, 'gif'));
    expect(await job?.getState()).toBe('waiting');
    for (const answer of answers) {
      expect(answer.body.startedAt).toBe(job?.timestamp);
      expect(answer.body.checkAt).toBeGreaterThan(answer.body.startedAt);
    }
    const checked = await request(`${h.url}/check/${md5}/gif`, { headers: h.auth });
    expect([checked.status, checked.body.startedAt]).toEqual([200, job?.timestamp]);
  });

  it.each(THUMBNAIL_TYPES)('makes exactly one job for 30 concurrent PUTs of one md5 and type (%s)', async (type) => {
    const md5 = md5For('concurrent');
    const answers = await Promise.all(Array.from({ length: 30 }, () => put(md5, type)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(202));
    const jobs = (await h.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'])).filter(
      (j) => j.data.md5 === md5,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.id).toBe(thumbnailJobId(md5, type));
  });

  it('makes one job per type for concurrent PUTs of the three types of one md5', async () => {
    const md5 = md5For('per-type');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => put(md5, THUMBNAIL_TYPES[i % THUMBNAIL_TYPES.length]!)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(202));
    const jobs = (await h.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'])).filter(
      (j) => j.data.md5 === md5,
    );
    expect(jobs.map((j) => j.id).sort()).toEqual(THUMBNAIL_TYPES.map((type) => thumbnailJobId(md5, type)).sort());
  });

  it('makes exactly one job when several API instances are asked at once', async () => {
    const instances = [h.url, await h.startAnotherInstance(), await h.startAnotherInstance()];
    const md5 = md5For('instances');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        request(`${instances[i % instances.length]}/${md5}/gif`, { method: 'PUT', headers: h.auth }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(202));
    const jobs = (await h.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'])).filter(
      (j) => j.data.md5 === md5,
    );
    expect(jobs).toHaveLength(1);
  });

  it('resolves a decimal post id through the board and passes it to the worker', async () => {
    const post = h.board.addPost({ id: 31337, ext: 'webm' }, Buffer.from('a video'));
    const res = await put('31337', 'gif');
    expect(res.status).toBe(202);
    expect(res.body.md5).toBe(post.md5);
    expect(res.body.checkURL).toBe(`${THUMBS_URL}/check/${post.md5}/gif`);
    const job = await h.queue.getJob(thumbnailJobId(post.md5, 'gif'));
    expect(job?.data).toMatchObject({ md5: post.md5, type: 'gif', postId: 31337 });
  });

  it('estimates later for jobs further back in the queue', async () => {
    const first = await put(md5For('ahead-1'), 'gif');
    const second = await put(md5For('ahead-2'), 'gif');
    expect(second.status).toBe(202);
    expect(second.body.time).toBeGreaterThan(first.body.time);
  });

  it('answers 503 1067 with Retry-After when the board cannot resolve a post id, without queueing', async () => {
    h.board.failNext(502, 1);
    const before = await h.queue.count();
    const res = await put('8080', 'png');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      success: false,
      code: 1067,
      error: 'The image board cannot be reached right now; try again later.',
    });
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await h.queue.count()).toBe(before);
  });

  it('applies the thumbs.create rate limit bucket', async () => {
    const limited = await h.newKey(['thumbs'], { rateLimitRoute: 1 });
    const md5 = md5For('limit');
    expect((await put(md5, 'gif', { authorization: limited })).status).toBe(202);
    const res = await put(md5, 'gif', { authorization: limited });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(1000);
    expect(res.headers.get('x-ratelimit-bucket')).toBe('thumbs.create');
  });

  it('answers 405 with Allow for other methods on a thumbnail path', async () => {
    const res = await request(`${h.url}/${md5For('method')}/gif`, { method: 'DELETE', headers: h.auth });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toContain('PUT');
  });
});
