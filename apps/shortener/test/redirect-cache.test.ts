import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-lru', { SHORTENER_CACHE_SIZE: '2', SHORTENER_REDIRECT_MAX_AGE: '0' });
});
afterAll(async () => {
  await h.close();
});

describe('in-process redirect cache', () => {
  it('holds at most SHORTENER_CACHE_SIZE entries, dropping the least recently used', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) codes.push((await create(h, { url: uniqueUrl() })).body.data.code);
    expect(h.cache.localSize).toBe(2);
    const [first, second, third] = codes as [string, string, string];
    expect(h.cache.peek(first)).toBeUndefined();
    // Touch `second`, then bring `first` back: `third` is now the least recently used.
    expect(h.cache.peek(second)).toBeDefined();
    expect((await request(`${h.url}/${first}`)).status).toBe(302);
    expect(h.cache.peek(third)).toBeUndefined();
    expect(h.cache.peek(first)).toBeDefined();
    expect(h.cache.localSize).toBe(2);
  });

  it('sends no-cache redirects when SHORTENER_REDIRECT_MAX_AGE is 0', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const res = await request(`${h.url}/${body.data.code}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
  });
});
