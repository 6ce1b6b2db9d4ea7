import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('GET /categories and /categories/:db', () => {
  let h: Harness;
  const sizes: number[] = [];
  beforeAll(async () => {
    h = await startHarness('img-categories');
    await h.addCategory('furry.yiff.gay', 'Furry > Yiff > Gay');
    await h.addCategory('animals.fox', 'Animals > Fox');
    await h.addCategory('furry.hug', 'Furry > Hug');
    for (const seed of [0, 1, 2, 3]) sizes.push((await h.addImage('furry.yiff.gay', seed)).size);
    await h.addImage('furry.hug', 10);
    await h.repositories.categories.setDisabled('furry.hug', true, 'Under review.');
  });
  afterAll(async () => h.close());

  it('lists enabled categories, and disabled ones with their comment (empty → never had content)', async () => {
    const res = await request(`${h.url}/categories`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        enabled: [{ name: 'Furry > Yiff > Gay', db: 'furry.yiff.gay', sfw: false }],
        disabled: [
          { name: 'Animals > Fox', db: 'animals.fox', sfw: false, _comment: NEVER_HAD_CONTENT_COMMENT },
          { name: 'Furry > Hug', db: 'furry.hug', sfw: false, _comment: 'Under review.' },
        ],
      },
    });
  });

  it('aggregates a category from the database', async () => {
    const res = await request(`${h.url}/categories/furry.yiff.gay`);
    expect(res.status).toBe(200);
    const total = sizes.reduce((a, b) => a + b, 0);
    const average = Math.round(total / 4);
    expect(res.body).toEqual({
      success: true,
      data: {
        name: 'Furry > Yiff > Gay',
        db: 'furry.yiff.gay',
        sfw: false,
        disabled: false,
        files: {
          exists: true,
          list: {
            total: 4,
            size: {
              total,
              totalM: Math.round((total / 1048576) * 1000) / 1000,
              average,
              averageM: Math.round((average / 1048576) * 1000) / 1000,
            },
            // seeds 0..3 rotate png, jpeg, gif, png
            types: { 'image/gif': 1, 'image/jpeg': 1, 'image/png': 2 },
          },
        },
      },
    });
    expect(res.body.data._comment).toBeUndefined();
  });

  it('shows disabled and empty categories with their comment', async () => {
    const empty = await request(`${h.url}/categories/animals.fox`);
    expect(empty.body.data).toMatchObject({
      disabled: true,
      _comment: NEVER_HAD_CONTENT_COMMENT,
      files: { exists: false, list: { total: 0, types: {} } },
    });
    const disabled = await request(`${h.url}/categories/furry.hug`);
    expect(disabled.body.data).toMatchObject({ disabled: true, _comment: 'Under review.', files: { exists: true } });
  });

  it('answers 404 1030 for an unknown category', async () => {
    for (const db of ['furry.nope', 'FURRY.YIFF.GAY', 'bad key']) {
      const res = await request(`${h.url}/categories/${encodeURIComponent(db)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1030 });
    }
  });

  it('gives each list an ETag, and answers 304 without a body while it still matches', async () => {
    for (const path of ['/categories', '/categories/furry.yiff.gay']) {
      const first = await request(`${h.url}${path}`);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
      const again = await request(`${h.url}${path}`, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      const among = await request(`${h.url}${path}`, { headers: { 'If-None-Match': `"0-other", W/${etag!}` } });
      expect(among.status).toBe(304);
      const stale = await request(`${h.url}${path}`, { headers: { 'If-None-Match': '"0-stale"' } });
      expect(stale.status).toBe(200);
      expect(stale.body).toEqual(first.body);
    }
  });

  it('changes the ETag when the list changes', async () => {
    const before = (await request(`${h.url}/categories`)).headers.get('etag');
    await h.addCategory('animals.otter', 'Animals > Otter');
    const after = await request(`${h.url}/categories`, { headers: { 'If-None-Match': before! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });

  it('answers 405 with Allow for other methods', async () => {
    const res = await request(`${h.url}/categories`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('GET /categories/:db under IMAGES_CATEGORY_CACHE_MS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-cat-cache', { IMAGES_CATEGORY_CACHE_MS: '60000' });
    await h.addCategory('furry.boop', 'Furry > Boop');
    await h.addImage('furry.boop', 0);
  });
  afterAll(async () => h.close());

  it("remembers a category's aggregates for the window, while random picks see a new import at once", async () => {
    const first = await Promise.all(Array.from({ length: 5 }, () => request(`${h.url}/categories/furry.boop`)));
    for (const res of first) expect(res.body.data.files.list.total).toBe(1);
    await h.addImage('furry.boop', 1);
    // Within the window the answer is the remembered one; the random endpoint already sees both.
    expect((await request(`${h.url}/categories/furry.boop`)).body.data.files.list.total).toBe(1);
    expect((await request(`${h.url}/furry.boop?amount=2`)).body.images).toHaveLength(2);
    expect(
      new Set((await request(`${h.url}/furry.boop?amount=2`)).body.images.map((i: { id: string }) => i.id)).size,
    ).toBe(2);
  });
});
