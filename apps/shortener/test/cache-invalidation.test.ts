import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  create,
  invalidated,
  jsonInit,
  request,
  startHarness,
  uniqueUrl,
  type Harness,
  type Instance,
} from './support.js';

let h: Harness;
let second: Instance;
beforeAll(async () => {
  h = await startHarness('sh-invalidate');
  second = await h.startInstance();
});
afterAll(async () => {
  await h.close();
});

async function editable(): Promise<{ code: string; managementCode: string; url: string }> {
  const url = uniqueUrl();
  const { body } = await create(h, { url }, { editable: true });
  return { code: body.data.code, managementCode: body.data.managementCode!, url };
}

const locationAt = async (base: string, code: string): Promise<string | null> =>
  (await request(`${base}/${code}`)).headers.get('location');

describe('redirect caches across instances sharing one Redis', () => {
  it('follows an edit at once on the editing instance and on a second instance', async () => {
    const entry = await editable();
    // Warm both instances' memory (second request of each is a fast-path hit).
    for (const base of [h.url, second.url]) {
      expect(await locationAt(base, entry.code)).toBe(entry.url);
      expect(await locationAt(base, entry.code)).toBe(entry.url);
    }
    expect(second.cache.peek(entry.code)?.url).toBe(entry.url);

    const announced = invalidated(second.cache, entry.code);
    const next = uniqueUrl('edited');
    const patch = await request(
      `${h.url}/${entry.code}`,
      jsonInit('PATCH', { managementCode: entry.managementCode, url: next }, { authorization: h.key }),
    );
    expect(patch.status).toBe(200);
    expect(await locationAt(h.url, entry.code)).toBe(next);
    await announced;
    expect(await locationAt(second.url, entry.code)).toBe(next);
  });

  it('404s a deleted code on every instance', async () => {
    const entry = await editable();
    for (const base of [h.url, second.url]) {
      expect(await locationAt(base, entry.code)).toBe(entry.url);
      expect(await locationAt(base, entry.code)).toBe(entry.url);
    }
    const announced = Promise.all([invalidated(h.cache, entry.code), invalidated(second.cache, entry.code)]);
    const del = await request(
      `${second.url}/${entry.code}`,
      jsonInit('DELETE', { managementCode: entry.managementCode }, { authorization: h.key }),
    );
    expect(del.status).toBe(204);
    await announced;
    for (const base of [h.url, second.url]) {
      const res = await request(`${base}/${entry.code}`);
      expect(res.status).toBe(404);
      expect(res.text).toBe('Unknown short url code.');
    }
  });

  it('keeps a deleted code deleted when an edit that raced the delete writes the cache last', async () => {
    const entry = await editable();
    expect(await locationAt(h.url, entry.code)).toBe(entry.url);
    const del = await request(
      `${h.url}/${entry.code}`,
      jsonInit('DELETE', { managementCode: entry.managementCode }, { authorization: h.key }),
    );
    expect(del.status).toBe(204);
    // The PATCH updated the row just before the DELETE removed it, and reaches the cache after it.
    await h.cache.invalidate(entry.code, 'edited');
    for (const base of [h.url, second.url]) {
      for (let i = 0; i < 2; i++) expect((await request(`${base}/${entry.code}`)).status).toBe(404);
    }
  });

  it('an edit leaves no url in Redis that a reader who loaded the old one could keep', async () => {
    const entry = await editable();
    const key = `${h.config.redis.prefix}shortener:url:${entry.code}`;
    expect(await h.redis.get(key)).toBe(entry.url);
    const next = uniqueUrl('marked');
    const patch = await request(
      `${h.url}/${entry.code}`,
      jsonInit('PATCH', { managementCode: entry.managementCode, url: next }, { authorization: h.key }),
    );
    expect(patch.status).toBe(200);
    // A reader that loaded the old url before the edit fills with SET NX: the marker makes that a no-op.
    expect(await h.redis.set(key, entry.url, 'EX', 60, 'NX')).toBeNull();
    second.cache.clear();
    expect(await locationAt(second.url, entry.code)).toBe(next);
  });

  it('does not remember a value loaded before an invalidation arrived', async () => {
    const entry = await editable();
    second.cache.clear();
    await h.redis.del(`${h.config.redis.prefix}shortener:url:${entry.code}`);
    // Start a cold read, then let an invalidation land before it finishes.
    const read = second.cache.get(entry.code);
    second.cache.clear();
    expect((await read)?.url).toBe(entry.url);
    expect(second.cache.peek(entry.code)).toBeUndefined();
  });
});
