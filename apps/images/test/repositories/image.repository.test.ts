import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryRepository } from '../../src/repositories/category.repository.js';
import { ImageRepository } from '../../src/repositories/image.repository.js';
import { imageRow, openStores, type Stores } from './stores.js';

describe('ImageRepository (MariaDB)', () => {
  let stores: Stores;
  let images: ImageRepository;
  beforeAll(async () => {
    stores = await openStores('img-repo-images');
    images = new ImageRepository(stores.images);
    const categories = new CategoryRepository(stores.images);
    await categories.create('furry.hug', 'Furry > Hug');
    await categories.create('furry.boop', 'Furry > Boop');
  });
  afterAll(async () => stores.close());

  it('stores a row and reads it back whole (lists, nulls, size and time)', async () => {
    const row = imageRow('furry.hug', 1, {
      artists: ['Zoë', '狐'],
      sources: [],
      reportUrl: 'https://example.com/report',
      size: 5_000_000_000,
    });
    expect(await images.insert(row)).toBe(true);
    expect(await images.findById(row.id)).toEqual(row);
    expect(await images.findByIds([row.id])).toEqual([row]);
  });

  it('refuses a second row with the same MD5 (false, not an error)', async () => {
    expect(await images.insert(imageRow('furry.boop', 1))).toBe(false);
    expect((await images.findById(imageRow('furry.hug', 1).id))?.category).toBe('furry.hug');
  });

  it('refuses a row of a category that does not exist (foreign key)', async () => {
    await expect(images.insert(imageRow('furry.gone', 99))).rejects.toThrow();
  });

  it('reads many rows in the order asked, leaving out ids without a row', async () => {
    for (const n of [2, 3]) await images.insert(imageRow('furry.hug', n));
    const [one, two, three] = [1, 2, 3].map((n) => imageRow('furry.hug', n).id);
    const missing = 'f'.repeat(32);
    expect((await images.findByIds([three!, missing, one!, two!])).map((r) => r.id)).toEqual([three, one, two]);
    expect(await images.findByIds([])).toEqual([]);
  });

  it('pages a category by keyset, and counts images per category', async () => {
    await images.insert(imageRow('furry.boop', 10));
    const pages: string[][] = [];
    for await (const page of images.idsAndSizes('furry.hug', 2)) pages.push(page.map((p) => p.id));
    expect(pages).toEqual([[imageRow('', 1).id, imageRow('', 2).id], [imageRow('', 3).id]]);
    expect(await images.countsByCategory()).toEqual(
      new Map([
        ['furry.boop', 1],
        ['furry.hug', 3],
      ]),
    );
  });

  it('removes a row once', async () => {
    const { id } = imageRow('furry.boop', 10);
    expect(await images.remove(id)).toBe(true);
    expect(await images.remove(id)).toBe(false);
    expect(await images.findById(id)).toBeNull();
  });
});
