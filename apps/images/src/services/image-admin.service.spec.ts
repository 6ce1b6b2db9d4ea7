import { beforeEach, describe, expect, it } from 'vitest';
import {
  FakeCategoryRepository,
  FakeImageFileRepository,
  FakeImageRepository,
  FakeRecordCacheRepository,
  FakeSizeIndexRepository,
  fakeLogger,
} from '../../test/fakes/repositories.fake.js';
import { imageRow } from '../../test/image-row.js';
import { ImageAdminService } from './image-admin.service.js';
import { SizeIndexService } from './size-index.service.js';

describe('ImageAdminService', () => {
  let images: FakeImageRepository;
  let index: FakeSizeIndexRepository;
  let records: FakeRecordCacheRepository;
  let files: FakeImageFileRepository;
  let admin: ImageAdminService;
  const row = imageRow('furry.hug', 1);
  beforeEach(async () => {
    images = new FakeImageRepository();
    const categories = new FakeCategoryRepository(images);
    await categories.create('furry.hug', 'Furry > Hug');
    await categories.create('animals.fox', 'Animals > Fox');
    images.rows.set(row.id, row);
    index = new FakeSizeIndexRepository();
    index.sets.set('furry.hug', new Map([[row.id, row.size]]));
    records = new FakeRecordCacheRepository();
    await records.setMany([row]);
    files = new FakeImageFileRepository();
    await files.place(row.id, row.ext, Buffer.from('x'));
    admin = new ImageAdminService({
      categories,
      images,
      records,
      index,
      indexing: new SizeIndexService({ index, images, logger: fakeLogger() }),
      files,
    });
  });

  it('removes an image everywhere: index entry, cached record, row and file', async () => {
    expect(await admin.remove(row.id)).toEqual(row);
    expect(index.sets.get('furry.hug')?.has(row.id)).toBe(false);
    expect(records.rows.size).toBe(0);
    expect(images.rows.size).toBe(0);
    expect(files.files.size).toBe(0);
    expect(await admin.remove(row.id)).toBeNull();
  });

  it('rebuilds the index of one category, or of every category, reporting each', async () => {
    index.sets.delete('furry.hug');
    const done: Array<[string, number]> = [];
    expect(await admin.reindex('furry.hug', (db, count) => done.push([db, count]))).toBe(true);
    expect(await admin.reindex(undefined, (db, count) => done.push([db, count]))).toBe(true);
    expect(done).toEqual([
      ['furry.hug', 1],
      ['animals.fox', 0],
      ['furry.hug', 1],
    ]);
    expect(index.sets.get('furry.hug')?.size).toBe(1);
  });

  it('rebuilds nothing for a category that does not exist', async () => {
    expect(await admin.reindex('furry.nope', () => undefined)).toBe(false);
    expect(index.calls.rebuild).toBe(0);
  });
});
