import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { thumbhashFileName, thumbnailsDir } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_URL, md5For, startThumbs, type ThumbsHarness } from './helpers.js';

let h: ThumbsHarness;
beforeAll(async () => {
  h = await startThumbs();
});
afterAll(async () => {
  await h?.close();
});

const get = (id: string, headers: Record<string, string> = h.auth) => request(`${h.url}/${id}`, { headers });

describe('GET /:id', () => {
  it('requires a key with the thumbs flag', async () => {
    const md5 = md5For('auth');
    const none = await get(md5, {});
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, code: 1013 });
    const invalid = await get(md5, { authorization: 'not-a-key' });
    expect(invalid.status).toBe(401);
    expect(invalid.body.code).toBe(1010);
    const withoutFlag = await get(md5, { authorization: `Bearer ${h.keyWithoutFlag}` });
    expect(withoutFlag.status).toBe(403);
    expect(withoutFlag.body).toMatchObject({ success: false, code: 1022 });
  });

  it('answers null URLs when no thumbnail exists', async () => {
    const res = await get(md5For('none'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      gifURL: null,
      pngURL: null,
      webpURL: null,
      mp4URL: null,
      thumbhash: null,
    });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers the URLs of the files that exist, for an MD5 in any case', async () => {
    const md5 = md5For('files');
    await h.writeThumbnail(md5, 'gif');
    const onlyGif = await get(md5.toUpperCase());
    expect(onlyGif.status).toBe(200);
    expect(onlyGif.body).toEqual({
      success: true,
      gifURL: `${MEDIA_URL}/${md5}.gif`,
      pngURL: null,
      webpURL: null,
      mp4URL: null,
      thumbhash: null,
    });
    await h.writeThumbnail(md5, 'png');
    const both = await get(md5);
    expect(both.body).toEqual({
      success: true,
      gifURL: `${MEDIA_URL}/${md5}.gif`,
      pngURL: `${MEDIA_URL}/${md5}.png`,
      webpURL: null,
      mp4URL: null,
      thumbhash: null,
    });
    await h.writeThumbnail(md5, 'webp');
    const all = await get(md5);
    expect(all.body).toEqual({
      success: true,
      gifURL: `${MEDIA_URL}/${md5}.gif`,
      pngURL: `${MEDIA_URL}/${md5}.png`,
      webpURL: `${MEDIA_URL}/${md5}.webp`,
      mp4URL: null,
      thumbhash: null,
    });
    await h.writeThumbnail(md5, 'mp4');
    const withMp4 = await get(md5);
    expect(withMp4.body).toEqual({
      success: true,
      gifURL: `${MEDIA_URL}/${md5}.gif`,
      pngURL: `${MEDIA_URL}/${md5}.png`,
      webpURL: `${MEDIA_URL}/${md5}.webp`,
      mp4URL: `${MEDIA_URL}/${md5}.mp4`,
      thumbhash: null,
    });
  });

  it('answers mp4URL alone when only the MP4 exists', async () => {
    const md5 = md5For('mp4-only');
    await h.writeThumbnail(md5, 'mp4');
    const res = await get(md5);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      gifURL: null,
      pngURL: null,
      webpURL: null,
      mp4URL: `${MEDIA_URL}/${md5}.mp4`,
      thumbhash: null,
    });
  });

  it('answers the ThumbHash the worker stored with the still, in base64', async () => {
    const md5 = md5For('thumbhash');
    await h.writeThumbnail(md5, 'webp');
    const hash = Buffer.from([
      0x93, 0x18, 0x0a, 0x35, 0x86, 0x37, 0x89, 0x87, 0x70, 0x77, 0x88, 0x87, 0x78, 0x07, 0x08, 0x88, 0x87, 0x80, 0x08,
    ]);
    await writeFile(path.join(thumbnailsDir(h.ctx.mediaDir), thumbhashFileName(md5)), hash);
    const res = await get(md5);
    expect(res.body).toEqual({
      success: true,
      gifURL: null,
      pngURL: null,
      webpURL: `${MEDIA_URL}/${md5}.webp`,
      mp4URL: null,
      thumbhash: hash.toString('base64'),
    });
  });

  it('resolves a decimal post id through the board', async () => {
    const post = h.board.addPost({ id: 4242, ext: 'png' }, Buffer.from('post 4242'));
    await h.writeThumbnail(post.md5, 'png');
    const res = await get('4242');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      gifURL: null,
      pngURL: `${MEDIA_URL}/${post.md5}.png`,
      webpURL: null,
      mp4URL: null,
      thumbhash: null,
    });
    expect(h.board.requests.some((r) => r.path.startsWith('/posts/4242.json'))).toBe(true);
  });

  it('answers 404 1062 for a post id the board does not know, or that cannot be one', async () => {
    for (const id of ['987654', '0', '99999999999999999999']) {
      const res = await get(id);
      expect(res.status, id).toBe(404);
      expect(res.body, id).toMatchObject({ success: false, code: 1062 });
    }
  });

  it('answers 404 1063 for anything that is neither a post id nor an MD5', async () => {
    for (const id of [
      'abc',
      'd41d8cd98f00b204e9800998ecf8427',
      'd41d8cd98f00b204e9800998ecf8427e0',
      'g41d8cd98f00b204e9800998ecf8427e',
      '-5',
      '12ab',
    ]) {
      const res = await get(encodeURIComponent(id));
      expect(res.status, id).toBe(404);
      expect(res.body, id).toMatchObject({ success: false, code: 1063 });
    }
  });

  it('answers 404 1062 when the board answers a post without a usable file (missing, null, wrong types)', async () => {
    const bodies: unknown[] = [
      { post: null },
      { post: { id: 7001 } },
      { post: { id: 7001, file: null } },
      { post: { id: 7001, file: { md5: 12345, ext: 'png' } } },
      { post: { id: 7001, file: { md5: 'not-an-md5', ext: 'png' } } },
      { post: { id: '7001', file: { md5: md5For('typed'), ext: 'png' } } },
      { post: { id: 7001, file: { md5: md5For('ext'), ext: null } } },
      { posts: [] },
      [],
      null,
    ];
    for (const body of bodies) {
      h.board.answerRaw('/posts/7001.json', body);
      await h.redis.del(`${h.config.redis.prefix}board:id:7001`);
      const res = await get('7001');
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body, JSON.stringify(body)).toMatchObject({ success: false, code: 1062 });
    }
  });

  it('answers 1063 for NUL bytes, unicode and very long ids', async () => {
    for (const id of [
      '%00',
      'd41d8cd98f00b204e9800998ecf8427%00',
      '%C3%A9t%C3%A9',
      'a'.repeat(4000),
      '%20d41d8cd98f00b204e9800998ecf8427e',
    ]) {
      const res = await get(id);
      expect(res.status, id.slice(0, 40)).toBe(404);
      expect(res.body, id.slice(0, 40)).toMatchObject({ success: false, code: 1063 });
    }
  });

  it.each([
    ['answering 5xx', () => h.board.failNext(503, 1)],
    ['timing out', () => h.board.setApiDelay(4000)],
  ])(
    'answers 503 1067 with Retry-After when the board cannot resolve a post id (%s); nothing internal in the message',
    async (_case, breakBoard) => {
      breakBoard();
      try {
        const res = await get('5151');
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          success: false,
          code: 1067,
          error: 'The image board cannot be reached right now; try again later.',
        });
        expect(res.headers.get('retry-after')).toBe('5');
      } finally {
        h.board.setApiDelay(0);
      }
    },
  );

  it('answers 503 1067 when the board is unreachable (connection refused)', async () => {
    const unreachable = await startThumbs({ BOARD_URL: 'http://127.0.0.1:9', BOARD_STATIC_URL: 'http://127.0.0.1:9' });
    try {
      const res = await request(`${unreachable.url}/7171`, { headers: unreachable.auth });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(1067);
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await unreachable.close();
    }
  });

  it('answers 503 1067 at once, without spending board budget, when the board budget is booked past THUMBS_BOARD_MAX_WAIT_MS', async () => {
    const key = `${h.config.redis.prefix}board:ratelimit`;
    const [seconds] = await h.redis.time();
    // The shared limiter's next free slot, a minute ahead: as if a burst had booked 120 lookups.
    await h.redis.set(key, String(Number(seconds) * 1000 + 60_000), 'PX', 65_000);
    const before = h.board.requests.length;
    try {
      const res = await get('6161');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 1067 });
      expect(res.headers.get('retry-after')).toBe('5');
      expect(h.board.requests.length).toBe(before);
      // Refusing reserved nothing: the booking is where the burst left it.
      expect(Number(await h.redis.get(key))).toBe(Number(seconds) * 1000 + 60_000);
    } finally {
      await h.redis.del(key);
    }
  });

  it('is not affected by read-only mode', async () => {
    await h.setReadOnly(true);
    try {
      const res = await get(md5For('ro'));
      expect(res.status).toBe(200);
    } finally {
      await h.setReadOnly(false);
    }
  });

  it('applies the thumbs.info rate limit bucket', async () => {
    const limited = await h.newKey(['thumbs'], { rateLimitRoute: 1 });
    const md5 = md5For('limit');
    expect((await get(md5, { authorization: limited })).status).toBe(200);
    const res = await get(md5, { authorization: limited });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, code: 1000 });
    expect(res.headers.get('x-ratelimit-bucket')).toBe('thumbs.info');
  });
});
