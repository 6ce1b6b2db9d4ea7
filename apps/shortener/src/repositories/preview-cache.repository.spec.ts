import { describe, expect, it } from 'vitest';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import { PreviewCacheRepository } from './preview-cache.repository.js';

const row = (code: string, credit: string): ShortUrl => ({
  pos: 1,
  code,
  url: 'https://example.com/',
  sharedUrlHash: null,
  credit,
  managementCodeHash: null,
  createdAt: new Date(0),
  modifiedAt: null,
  urlChangedAt: null,
  expiresAt: null,
  maxVisits: null,
  maxVisitsUsed: 0,
  maxVisitsReachedAt: null,
  ownerKeyId: null,
  passwordHash: null,
  rules: null,
});

/** A preview cache over a source whose answers the test releases one by one. */
function setup(size = 10) {
  const pending: Array<(value: ShortUrl | null) => void> = [];
  let now = 0;
  const loads: string[] = [];
  const cache = new PreviewCacheRepository({
    size,
    ttlMs: 1000,
    now: () => now,
    load: (code) => {
      loads.push(code);
      return new Promise((resolve) => pending.push(resolve));
    },
  });
  return {
    cache,
    loads,
    release: (value: ShortUrl | null) => pending.shift()?.(value),
    advance: (ms: number) => (now += ms),
  };
}

describe('PreviewCacheRepository', () => {
  it('loads once, then answers from memory until the entry expires', async () => {
    const { cache, loads, release, advance } = setup();
    const first = cache.get('a');
    release(row('a', 'Otter'));
    expect((await first)?.credit).toBe('Otter');
    expect(cache.has('a')).toBe(true);
    expect((await cache.get('a'))?.credit).toBe('Otter');
    expect(loads).toEqual(['a']);
    advance(1000);
    expect(cache.has('a')).toBe(false);
  });

  it('does not remember a load that an eviction overtook, nor unknown codes', async () => {
    const { cache, release } = setup();
    const stale = cache.get('a');
    cache.evict('a');
    release(row('a', 'Before the edit'));
    expect((await stale)?.credit).toBe('Before the edit');
    expect(cache.has('a')).toBe(false);
    const unknown = cache.get('b');
    release(null);
    expect(await unknown).toBeNull();
    expect(cache.has('b')).toBe(false);
  });

  it('holds nothing when its size is 0', async () => {
    const { cache, release } = setup(0);
    const first = cache.get('a');
    release(row('a', 'Otter'));
    await first;
    expect(cache.has('a')).toBe(false);
  });
});
