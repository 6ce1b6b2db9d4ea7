import { NOTES } from '../src/domain/notes.policy.js';
import { ApiKeyRepository } from '@pawlink/auth';
import { createTestKey } from '@pawlink/auth/testing';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('GET /:category', () => {
  let h: Harness;
  const gay = new Map<string, number>();
  beforeAll(async () => {
    h = await startHarness('img-random');
    await h.addCategory('furry.yiff.gay', 'Furry > Yiff > Gay');
    await h.addCategory('furry.pair', 'Furry > Pair');
    await h.addCategory('animals.fox', 'Animals > Fox');
    await h.addCategory('furry.hug', 'Furry > Hug');
    for (let seed = 0; seed < 7; seed++) {
      const image = await h.addImage('furry.yiff.gay', seed);
      gay.set(image.id, image.size);
    }
    await h.addImage('furry.pair', 20);
    await h.addImage('furry.pair', 21);
    await h.addImage('furry.hug', 30);
    await h.repositories.categories.setDisabled('furry.hug', true, 'Closed.');
  });
  afterAll(async () => h.close());

  it('returns one random image with notes, in the dotted and the slashed form', async () => {
    for (const path of ['/furry.yiff.gay', '/furry/yiff/gay']) {
      const res = await request(`${h.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, images: [expect.any(Object)], notes: NOTES });
      const [image] = res.body.images;
      expect(gay.has(image.id)).toBe(true);
      expect(image).toEqual({
        id: image.id,
        url: `http://media.test/images/${image.id}.${image.ext}`,
        name: `${image.id}.${image.ext}`,
        ext: expect.stringMatching(/^(png|jpg|gif)$/),
        type: expect.stringMatching(/^image\//),
        size: gay.get(image.id),
        width: expect.any(Number),
        height: expect.any(Number),
        artists: ['Test Artist'],
        sources: ['https://example.com/source'],
        reportURL: null,
        shortURL: null,
        thumbhash: expect.stringMatching(/^[A-Za-z0-9+/]{6,}={0,2}$/),
      });
      expect(image.category).toBeUndefined();
    }
  });

  it('returns distinct images within a response', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await request(`${h.url}/furry.yiff.gay?amount=5`);
      expect(res.status).toBe(200);
      const ids = res.body.images.map((image: { id: string }) => image.id);
      expect(ids).toHaveLength(5);
      expect(new Set(ids).size).toBe(5);
      for (const id of ids) expect(gay.has(id)).toBe(true);
    }
  });

  it('returns each image once when the category has fewer than asked, never a duplicate (JSON, dotted and slashed)', async () => {
    for (const path of ['/furry.pair?amount=5', '/furry/pair?amount=3']) {
      const res = await request(`${h.url}${path}`);
      expect(res.status).toBe(200);
      const ids = res.body.images.map((image: { id: string }) => image.id);
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(2);
    }
  });

  it('hides notes with notes=disabled', async () => {
    const res = await request(`${h.url}/furry.yiff.gay?notes=disabled`);
    expect(res.body.notes).toEqual([]);
  });

  it.each([
    ['1', 200, 1],
    ['5', 200, 5],
    ['0', 400, 1051],
    ['-1', 400, 1051],
    ['6', 400, 1052],
    ['2.5', 400, 1057],
    ['abc', 400, 1057],
    ['', 400, 1057],
  ])('amount=%j → %i (%i)', async (amount, status, codeOrCount) => {
    const res = await request(`${h.url}/furry.yiff.gay?amount=${encodeURIComponent(amount)}`);
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.images).toHaveLength(codeOrCount);
    else expect(res.body).toEqual({ success: false, error: expect.any(String), code: codeOrCount });
  });

  it('rejects a repeated amount with 1057', async () => {
    const res = await request(`${h.url}/furry.yiff.gay?amount=1&amount=2`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1057);
  });

  it.each([
    ['1.5mb', 200],
    ['1048576', 200],
    ['1GB', 200],
    ['0', 1041],
    ['6', 1041],
    ['1KB', 1041],
    ['abc', 1057],
    ['', 1057],
    ['-1', 1057],
    ['1TB', 1057],
    ['2.5', 1057],
  ])('sizeLimit=%j → %i', async (sizeLimit, expected) => {
    const res = await request(`${h.url}/furry.yiff.gay?amount=3&sizeLimit=${encodeURIComponent(sizeLimit)}`);
    if (expected === 200) {
      expect(res.status).toBe(200);
      expect(res.body.images).toHaveLength(3);
    } else {
      expect(res.status).toBe(expected === 1041 ? 404 : 400);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: expected });
    }
  });

  it('rejects a repeated sizeLimit with 1057', async () => {
    const res = await request(`${h.url}/furry.yiff.gay?sizeLimit=1MB&sizeLimit=2MB`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1057);
  });

  it('only returns images at or under sizeLimit', async () => {
    const sorted = [...gay.entries()].sort((a, b) => a[1] - b[1]);
    const [smallestId, smallest] = sorted[0]!;
    const exact = await request(`${h.url}/furry.yiff.gay?amount=5&sizeLimit=${smallest}`);
    expect(exact.status).toBe(200);
    // One image fits: the answer has it once, not five times.
    expect(exact.body.images.map((image: { id: string }) => image.id)).toEqual([smallestId]);

    const third = sorted[2]![1];
    for (let i = 0; i < 5; i++) {
      const res = await request(`${h.url}/furry.yiff.gay?amount=5&sizeLimit=${third}B`);
      const sizesSeen = res.body.images.map((image: { size: number }) => image.size);
      expect(sizesSeen.every((size: number) => size <= third)).toBe(true);
      // Three fit: each of them once.
      expect(sizesSeen).toHaveLength(3);
      expect(new Set(res.body.images.map((image: { id: string }) => image.id)).size).toBe(3);
    }
  });

  it('answers 404 1030 for unknown, disabled and empty categories', async () => {
    for (const path of ['/furry.nope', '/furry/nope', '/furry.hug', '/animals.fox', '/animals/fox', '/x']) {
      const res = await request(`${h.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1030 });
    }
  });

  it('is public; a presented key must be valid, and the route limit of a key applies (429 1000)', async () => {
    const bogus = await request(`${h.url}/furry.yiff.gay`, { headers: { authorization: 'bogus-key' } });
    expect(bogus.status).toBe(401);
    expect(bogus.body.code).toBe(1010);
    const key = await createTestKey(new ApiKeyRepository(h.auth), [], {
      name: 'limited',
      contact: 'x',
      rateLimitRoute: 2,
    });
    const statuses: number[] = [];
    let limited: { body: any; headers: Headers } | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await request(`${h.url}/furry.yiff.gay`, { headers: { authorization: key } });
      statuses.push(res.status);
      limited = res;
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(limited!.body.code).toBe(1000);
    expect(limited!.headers.get('x-ratelimit-bucket')).toBe('images.random');
    expect(limited!.headers.get('retry-after')).toBeTruthy();
  });

  it('answers 405 1025 for other methods on a category path', async () => {
    const res = await request(`${h.url}/furry.yiff.gay`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('takes the slashed form sent as one encoded segment (`/furry%2Fyiff%2Fgay`), as generated clients send it', async () => {
    for (const path of ['/furry%2Fyiff%2Fgay', '/furry%2fyiff%2fgay?amount=2']) {
      const res = await request(`${h.url}${path}`);
      expect(res.status, path).toBe(200);
      for (const image of res.body.images as { id: string }[]) expect(gay.has(image.id)).toBe(true);
    }
    expect((await request(`${h.url}/furry%2F%2Fyiff`)).body.code).toBe(1030);
  });

  it('takes a slashed category path with a trailing slash like the dotted one', async () => {
    for (const path of ['/furry/yiff/gay/', '/furry.yiff.gay/']) {
      const res = await request(`${h.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.body.images).toHaveLength(1);
    }
    const empty = await request(`${h.url}/furry//yiff/gay`);
    expect(empty.body.code).toBe(1030);
  });
});
