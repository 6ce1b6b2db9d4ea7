import { describe, expect, it } from 'vitest';
import { CategoryCountsRepository } from './category-counts.repository.js';
import { FakeCategoryRepository, FakeImageRepository } from '../../test/fakes/repositories.fake.js';
import { imageRow } from '../../test/image-row.js';

/** Counts the GROUP BYs, and fails them while `fail` is set. */
class CountingImages extends FakeImageRepository {
  asked = 0;
  fail = false;

  override countsByCategory(): Promise<Map<string, number>> {
    this.asked++;
    return this.fail ? Promise.reject(new Error('down')) : super.countsByCategory();
  }
}

function countsOver() {
  const images = new CountingImages();
  const categories = new FakeCategoryRepository(images);
  const clock = { now: 1_000_000 };
  return {
    images,
    categories,
    clock,
    counts: new CategoryCountsRepository(categories, images, 30_000, () => clock.now),
  };
}

describe('CategoryCountsRepository', () => {
  it('gives every category with whether it has content and its number of images', async () => {
    const { images, categories, counts } = countsOver();
    await categories.create('furry.hug', 'Hug');
    await categories.create('animals.fox', 'Fox');
    for (const n of [1, 2]) images.rows.set(imageRow('furry.hug', n).id, imageRow('furry.hug', n));
    expect(await counts.list()).toEqual([
      expect.objectContaining({ db: 'animals.fox', hasContent: false, images: 0 }),
      expect.objectContaining({ db: 'furry.hug', hasContent: true, images: 2 }),
    ]);
  });

  it('shares one read among concurrent callers and reuses it for ttlMs', async () => {
    const { images, clock, counts } = countsOver();
    const [a, b] = await Promise.all([counts.list(), counts.list()]);
    expect(b).toBe(a);
    expect(images.asked).toBe(1);
    clock.now += 29_999;
    await counts.list();
    expect(images.asked).toBe(1);
    clock.now += 1;
    await counts.list();
    expect(images.asked).toBe(2);
  });

  it('does not keep a failed read', async () => {
    const { images, counts } = countsOver();
    images.fail = true;
    await expect(counts.list()).rejects.toThrow('down');
    images.fail = false;
    expect(await counts.list()).toEqual([]);
    expect(images.asked).toBe(2);
  });
});
