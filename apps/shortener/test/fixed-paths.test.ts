import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-fixed-paths');
});
afterAll(async () => {
  await h.close();
});

// `/create` and `/delete` are POST-only; without their own 405 the `/:code` routes would take them.
describe.each([['/create'], ['/delete']])('%s with another method than POST', (path) => {
  it.each([['GET'], ['PATCH'], ['DELETE'], ['PUT']])('answers %s with 405 1025 and Allow', async (method) => {
    const init =
      method === 'GET'
        ? { headers: { authorization: h.key } }
        : jsonInit(method, { managementCode: 'x'.repeat(40), url: uniqueUrl() }, { authorization: h.key });
    const res = await request(`${h.url}${path}`, init);
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ success: false, error: 'Method not allowed on this route.', code: 1025 });
    expect(res.headers.get('allow')).toBe('OPTIONS, POST');
    expect(res.headers.get('location')).toBeNull();
  });

  it('answers HEAD with 405 and Allow, without a body', async () => {
    const res = await request(`${h.url}${path}`, { method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('OPTIONS, POST');
    expect(res.text).toBe('');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    const res = await request(`${h.url}${path}`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('OPTIONS, POST');
  });

  it('is not redirected by the warm fast path, whatever the cache holds', async () => {
    const code = path.slice(1);
    // No entry can have a reserved code; plant one in the caches anyway.
    await h.cache.put(code, { url: uniqueUrl(), expiresAt: null, limited: false, protected: false, rules: null });
    expect(h.cache.peek(code)).toBeDefined();
    for (const method of ['GET', 'HEAD']) {
      const res = await request(`${h.url}${path}`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('location'), method).toBeNull();
    }
    h.cache.clear();
  });

  it('leaves the preview and JSON forms of the word as unknown codes', async () => {
    expect((await request(`${h.url}${path}+`)).status).toBe(404);
    const json = await request(`${h.url}${path}.json`, { headers: { authorization: h.key } });
    expect(json.status).toBe(404);
    expect(json.body.code).toBe(1075);
  });
});
