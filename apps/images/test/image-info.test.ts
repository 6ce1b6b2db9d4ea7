import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('GET /images/:id.json', () => {
  let h: Harness;
  let image: { id: string; size: number; ext: string };
  beforeAll(async () => {
    h = await startHarness('img-info');
    await h.addCategory('furry.boop');
    image = await h.addImage('furry.boop', 4, { artists: ['Ann', 'Bob'], sources: ['https://example.com/1'] });
  });
  afterAll(async () => h.close());

  it('returns the record with its category, URLs from IMAGES_MEDIA_URL', async () => {
    const res = await request(`${h.url}/images/${image.id}.json`, { headers: { host: 'evil.example' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: image.id,
        url: `http://media.test/images/${image.id}.${image.ext}`,
        name: `${image.id}.${image.ext}`,
        ext: image.ext,
        type: 'image/jpeg',
        size: image.size,
        width: 800,
        height: 600,
        artists: ['Ann', 'Bob'],
        sources: ['https://example.com/1'],
        reportURL: null,
        shortURL: null,
        thumbhash: expect.stringMatching(/^[A-Za-z0-9+/]{6,}={0,2}$/),
        category: 'furry.boop',
      },
    });
  });

  it('accepts an upper-case id', async () => {
    expect((await request(`${h.url}/images/${image.id.toUpperCase()}.json`)).status).toBe(200);
  });

  it('answers 404 1040 for an unknown or malformed id', async () => {
    for (const id of ['0123456789abcdef0123456789abcdef', 'nope', `${image.id}0`]) {
      const res = await request(`${h.url}/images/${id}.json`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1040 });
    }
  });
});
