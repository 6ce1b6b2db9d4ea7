import { describe, expect, it } from 'vitest';
import { FakeCategoryRepository, FakeImageRepository } from '../../test/fakes/repositories.fake.js';
import { imageRow } from '../../test/image-row.js';
import { CategoryAdminService } from './category-admin.service.js';

describe('CategoryAdminService', () => {
  it('adds a key once, disables and enables existing categories only, and lists them with their image counts', async () => {
    const images = new FakeImageRepository();
    const admin = new CategoryAdminService({ categories: new FakeCategoryRepository(images), images });
    expect(await admin.add('furry.hug', 'Furry > Hug')).toBe(true);
    expect(await admin.add('furry.hug', 'Again')).toBe(false);
    expect(await admin.add('animals.fox', 'Animals > Fox')).toBe(true);
    images.rows.set(imageRow('furry.hug', 1).id, imageRow('furry.hug', 1));
    expect(await admin.disable('furry.hug', 'Closed.')).toBe(true);
    expect(await admin.disable('furry.nope', 'x')).toBe(false);
    expect(await admin.enable('furry.nope')).toBe(false);
    expect(
      (await admin.list()).map(({ db, disabled, disabledComment, hasContent, images: count }) => ({
        db,
        disabled,
        disabledComment,
        hasContent,
        count,
      })),
    ).toEqual([
      { db: 'animals.fox', disabled: false, disabledComment: null, hasContent: false, count: 0 },
      { db: 'furry.hug', disabled: true, disabledComment: 'Closed.', hasContent: true, count: 1 },
    ]);
    expect(await admin.enable('furry.hug')).toBe(true);
    expect((await admin.list())[1]).toMatchObject({ disabled: false, disabledComment: null });
  });
});
