import { describe, expect, it } from 'vitest';
import type { TypeStats } from './category.repository.js';
import { CategoryCacheRepository } from './category-cache.repository.js';
import { FakeCategoryRepository, FakeImageRepository } from '../../test/fakes/repositories.fake.js';
import { imageRow } from '../../test/image-row.js';

/** Counts type-stats queries, and fails them while `fail` is set. */
class StatsCountingCategories extends FakeCategoryRepository {
  statsAsked = 0;
  fail = false;

  override typeStats(db: string): Promise<TypeStats[]> {
    this.statsAsked++;
    return this.fail ? Promise.reject(new Error('down')) : super.typeStats(db);
  }
}

function cacheOver(ttlMs: number) {
  const images = new FakeImageRepository();
  const categories = new StatsCountingCategories(images);
  const clock = { now: 1_000_000 };
  return { images, categories, clock, cache: new CategoryCacheRepository(categories, ttlMs, () => clock.now) };
}

describe('CategoryCacheRepository', () => {
  it('never asks MySQL for a key that cannot name a category', async () => {
    const { categories, cache } = cacheOver(1000);
    expect(await cache.find('../etc')).toBeNull();
    expect(categories.calls.find).toBe(0);
  });

  it('remembers a category that does not exist as well as one that does, for ttlMs', async () => {
    const { categories, clock, cache } = cacheOver(1000);
    await categories.create('furry.hug', 'Hug');
    expect(await cache.find('furry.hug')).toMatchObject({ db: 'furry.hug' });
    expect(await cache.find('furry.nope')).toBeNull();
    await categories.create('furry.nope', 'Nope');
    expect(await cache.find('furry.nope')).toBeNull();
    expect(categories.calls.find).toBe(2);
    clock.now += 1001;
    expect(await cache.find('furry.nope')).toMatchObject({ db: 'furry.nope' });
  });

  it('asks every time with a ttl of 0', async () => {
    const { categories, cache } = cacheOver(0);
    await cache.find('furry.hug');
    await cache.find('furry.hug');
    expect(categories.calls.find).toBe(2);
  });

  it('shares one type-stats query among concurrent callers and reuses it for ttlMs', async () => {
    const { images, categories, clock, cache } = cacheOver(1000);
    images.rows.set(imageRow('furry.hug', 1).id, imageRow('furry.hug', 1));
    const [a, b] = await Promise.all([cache.typeStats('furry.hug'), cache.typeStats('furry.hug')]);
    expect(a).toEqual([{ mimeType: 'image/png', count: 1, totalSize: 1000 }]);
    expect(b).toBe(a);
    expect(categories.statsAsked).toBe(1);
    clock.now += 1001;
    await cache.typeStats('furry.hug');
    expect(categories.statsAsked).toBe(2);
  });

  it('does not keep a failed type-stats query', async () => {
    const { categories, cache } = cacheOver(1000);
    categories.fail = true;
    await expect(cache.typeStats('furry.hug')).rejects.toThrow('down');
    categories.fail = false;
    expect(await cache.typeStats('furry.hug')).toEqual([]);
    expect(categories.statsAsked).toBe(2);
  });
});
