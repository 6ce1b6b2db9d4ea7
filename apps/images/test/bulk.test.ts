import { jsonInit, request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('POST /bulk', () => {
  let h: Harness;
  let bulkKey: string;
  let plainKey: string;
  let smallKey: string;
  const hug = new Map<string, number>();
  const post = (body: unknown, key: string | undefined, query = '') =>
    request(`${h.url}/bulk${query}`, jsonInit('POST', body, key === undefined ? {} : { authorization: key }));

  beforeAll(async () => {
    h = await startHarness('img-bulk');
    await h.addCategory('furry.hug');
    await h.addCategory('animals.birb');
    await h.addCategory('animals.fox');
    await h.addCategory('furry.closed');
    for (let seed = 0; seed < 6; seed++) {
      const image = await h.addImage('furry.hug', seed);
      hug.set(image.id, image.size);
    }
    await h.addImage('animals.birb', 10);
    await h.addImage('animals.birb', 11);
    await h.addImage('furry.closed', 12);
    await h.repositories.categories.setDisabled('furry.closed', true, 'Closed.');
    bulkKey = await h.key(['images_bulk']);
    plainKey = await h.key(['shortener']);
    smallKey = await h.key(['images_bulk'], 3);
  });
  afterAll(async () => h.close());

  it('answers 1013 without a key and 1022 for a key without images_bulk', async () => {
    const none = await post({ 'furry.hug': 1 }, undefined);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(1013);
    const noFlag = await post({ 'furry.hug': 1 }, plainKey);
    expect(noFlag.status).toBe(403);
    expect(noFlag.body.code).toBe(1022);
    const invalid = await post({ 'furry.hug': 1 }, 'not-a-real-key');
    expect(invalid.status).toBe(401);
    expect(invalid.body.code).toBe(1010);
  });

  it('returns distinct images per category, each image once when a category has fewer than asked', async () => {
    const res = await post({ 'furry.hug': 4, 'animals.birb': 5 }, `Bearer ${bulkKey}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(Object.keys(res.body.data).sort()).toEqual(['animals.birb', 'furry.hug']);
    const hugIds = res.body.data['furry.hug'].map((image: { id: string }) => image.id);
    expect(hugIds).toHaveLength(4);
    expect(new Set(hugIds).size).toBe(4);
    for (const id of hugIds) expect(hug.has(id)).toBe(true);
    expect(res.body.data['animals.birb']).toHaveLength(2);
    expect(new Set(res.body.data['animals.birb'].map((image: { id: string }) => image.id)).size).toBe(2);
    expect(res.body.data['furry.hug'][0]).toMatchObject({
      url: expect.stringMatching(/^http:\/\/media\.test\/images\/[0-9a-f]{32}\.(png|jpg|gif)$/),
      artists: ['Test Artist'],
    });
  });

  it('applies sizeLimit (same rules as the random endpoint)', async () => {
    const smallest = Math.min(...hug.values());
    const res = await post({ 'furry.hug': 5 }, bulkKey, `?sizeLimit=${smallest}`);
    expect(res.status).toBe(200);
    expect(res.body.data['furry.hug'].map((image: { size: number }) => image.size)).toEqual([smallest]);
    const roomy = await post({ 'furry.hug': 2 }, bulkKey, '?sizeLimit=1.5mb');
    expect(roomy.body.data['furry.hug']).toHaveLength(2);
    for (const bad of ['abc', '', '-1', '1TB', '2.5']) {
      const res = await post({ 'furry.hug': 1 }, bulkKey, `?sizeLimit=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(1057);
    }
    const repeated = await post({ 'furry.hug': 1 }, bulkKey, '?sizeLimit=1MB&sizeLimit=2MB');
    expect(repeated.body.code).toBe(1057);
  });

  it.each([
    ['an array', ['furry.hug']],
    ['a string', 'furry.hug'],
    ['an empty object', {}],
    ['a negative count', { 'furry.hug': -1 }],
    ['a zero count', { 'furry.hug': 0 }],
    ['a fractional count', { 'furry.hug': 1.5 }],
    ['a string count', { 'furry.hug': '2' }],
    ['a null count', { 'furry.hug': null }],
  ])('answers 400 1054 for %s', async (_label, body) => {
    const res = await post(body, bulkKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1054 });
  });

  it('answers 400 1054 for a missing body and 1026 for malformed JSON', async () => {
    const missing = await request(`${h.url}/bulk`, { method: 'POST', headers: { authorization: bulkKey } });
    expect(missing.body.code).toBe(1054);
    const malformed = await request(`${h.url}/bulk`, {
      method: 'POST',
      headers: { authorization: bulkKey, 'content-type': 'application/json' },
      body: '{"furry.hug":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(1026);
  });

  it.each([['furry.unknown'], ['animals.fox'], ['furry.closed'], ['../etc']])(
    'answers 400 1055 naming the invalid category %s',
    async (db) => {
      const res = await post({ 'furry.hug': 1, [db]: 1 }, bulkKey);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(1055);
      expect(res.body.error).toContain(db);
    },
  );

  it('answers 400 1056 naming the limit and the total when above the key limit', async () => {
    const res = await post({ 'furry.hug': 2, 'animals.birb': 2 }, smallKey);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1056);
    expect(res.body.error).toContain('4');
    expect(res.body.error).toContain('3');
    const atLimit = await post({ 'furry.hug': 1, 'animals.birb': 2 }, smallKey);
    expect(atLimit.status).toBe(200);
    const defaultLimit = await post({ 'furry.hug': 101 }, bulkKey);
    expect(defaultLimit.body.code).toBe(1056);
    expect(defaultLimit.body.error).toContain('100');
    expect(defaultLimit.body.error).toContain('101');
  });

  it('answers 405 for GET /bulk with an Allow header naming only POST (and OPTIONS)', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await request(`${h.url}/bulk`, { method });
      expect(res.status).toBe(405);
      expect(res.body.code).toBe(1025);
      expect(res.headers.get('allow')).toBe('OPTIONS, POST');
    }
    const head = await fetch(`${h.url}/bulk`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('OPTIONS, POST');
    const options = await fetch(`${h.url}/bulk`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('OPTIONS, POST');
  });
});
