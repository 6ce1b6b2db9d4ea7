import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryRepository } from '../../src/repositories/category.repository.js';
import { ImageRepository } from '../../src/repositories/image.repository.js';
import { imageRow, openStores, type Stores } from './stores.js';

describe('CategoryRepository (MariaDB)', () => {
  let stores: Stores;
  let categories: CategoryRepository;
  beforeAll(async () => {
    stores = await openStores('img-repo-categories');
    categories = new CategoryRepository(stores.images);
  });
  afterAll(async () => stores.close());

  it('creates a category once; keys are case-sensitive', async () => {
    expect(await categories.create('furry.hug', 'Furry > Hug')).toBe(true);
    expect(await categories.create('furry.hug', 'Other')).toBe(false);
    expect(await categories.find('furry.hug')).toMatchObject({
      db: 'furry.hug',
      name: 'Furry > Hug',
      disabled: false,
      disabledComment: null,
    });
    expect(await categories.find('FURRY.HUG')).toBeNull();
    expect(await categories.count()).toBe(1);
  });

  it('disables with a comment and enables again; an unknown category is false', async () => {
    expect(await categories.setDisabled('furry.hug', true, 'Closed.')).toBe(true);
    expect(await categories.find('furry.hug')).toMatchObject({ disabled: true, disabledComment: 'Closed.' });
    expect(await categories.setDisabled('furry.hug', true, 'Closed.')).toBe(true);
    expect(await categories.setDisabled('furry.hug', false, null)).toBe(true);
    expect(await categories.find('furry.hug')).toMatchObject({ disabled: false, disabledComment: null });
    expect(await categories.setDisabled('furry.nope', true, 'x')).toBe(false);
  });

  it('lists every category with whether it has content, and aggregates one per type', async () => {
    await categories.create('animals.fox', 'Animals > Fox');
    const images = new ImageRepository(stores.images);
    await images.insert(imageRow('furry.hug', 1, { size: 100 }));
    await images.insert(imageRow('furry.hug', 2, { size: 300 }));
    await images.insert(imageRow('furry.hug', 3, { size: 50, ext: 'gif', mimeType: 'image/gif' }));
    expect((await categories.listWithContent()).map((c) => [c.db, c.hasContent])).toEqual([
      ['animals.fox', false],
      ['furry.hug', true],
    ]);
    expect(await categories.hasContent('furry.hug')).toBe(true);
    expect(await categories.hasContent('animals.fox')).toBe(false);
    expect(await categories.typeStats('furry.hug')).toEqual([
      { mimeType: 'image/gif', count: 1, totalSize: 50 },
      { mimeType: 'image/png', count: 2, totalSize: 400 },
    ]);
    expect(await categories.typeStats('animals.fox')).toEqual([]);
  });
});
