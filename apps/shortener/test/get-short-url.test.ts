import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, SHORTENER_URL, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-json');
});
afterAll(async () => {
  await h.close();
});

describe('GET /:code.json', () => {
  it('requires an API key with the shortener flag (1013, 1010, 1022)', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const none = await request(`${h.url}/${body.data.code}.json`);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(1013);
    const bad = await request(`${h.url}/${body.data.code}.json`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe(1010);
    const { key } = await h.apiKeys.create({ name: 'images', contact: 'x@example.com', flags: ['images_bulk'] });
    const noFlag = await request(`${h.url}/${body.data.code}.json`, { headers: { authorization: key } });
    expect(noFlag.status).toBe(403);
    expect(noFlag.body.code).toBe(1022);
  });

  it('answers {success, data: record}', async () => {
    const url = uniqueUrl();
    const created = await create(h, { url, code: 'json-me', credit: 'Wolf' }, { editable: true });
    const res = await request(`${h.url}/json-me.json`, { headers: { authorization: h.key } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        code: 'json-me',
        createdAt: created.body.data.createdAt,
        modifiedAt: null,
        url,
        pos: created.body.data.pos,
        credit: 'Wolf',
        fullURL: `${SHORTENER_URL}/json-me`,
        expiresAt: null,
        maxVisits: null,
        rules: [],
        protected: false,
        // The harness key created it: its owner sees the tags.
        tags: [],
        visits: 0,
      },
    });
  });

  it.each([['unknown-code'], ['bad_code'], ['JSON-ME'], ['%00'], ['%zz'], ['%C0%AE']])(
    'answers 404 1075 for %s',
    async (code) => {
      const res = await request(`${h.url}/${code}.json`, { headers: { authorization: h.key } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 1075 });
    },
  );
});
