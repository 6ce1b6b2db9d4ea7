import { beforeEach, describe, expect, it } from 'vitest';
import { FakeImageRepository, FakeSizeIndexRepository, fakeLogger } from '../../test/fakes/repositories.fake.js';
import { imageRow } from '../../test/image-row.js';
import { SizeIndexService } from './size-index.service.js';

describe('SizeIndexService', () => {
  let images: FakeImageRepository;
  let index: FakeSizeIndexRepository;
  let logger: ReturnType<typeof fakeLogger>;
  let service: SizeIndexService;
  beforeEach(() => {
    images = new FakeImageRepository();
    for (const [db, n] of [
      ['furry.hug', 1],
      ['furry.hug', 2],
      ['furry.boop', 3],
      ['furry.pair', 4],
      ['furry.pair', 5],
    ] as const) {
      const row = imageRow(db, n);
      images.rows.set(row.id, row);
    }
    index = new FakeSizeIndexRepository();
    logger = fakeLogger();
    service = new SizeIndexService({ index, images, logger });
  });

  it('rebuilds a category from MySQL, once for callers that ask at the same time', async () => {
    const counts = await Promise.all([service.rebuild('furry.hug'), service.rebuild('furry.hug')]);
    expect(counts).toEqual([2, 2]);
    expect(index.calls.rebuild).toBe(1);
    expect(new Set(index.sets.get('furry.hug')?.keys())).toEqual(new Set([imageRow('', 1).id, imageRow('', 2).id]));
    expect(logger.lines).toContainEqual({
      level: 'info',
      message: 'rebuilt size index',
      meta: { category: 'furry.hug', images: 2 },
    });
    await service.rebuild('furry.hug');
    expect(index.calls.rebuild).toBe(2);
  });

  it('at start, rebuilds the categories whose index is missing or holds another number of images', async () => {
    index.sets.set(
      'furry.hug',
      new Map([
        [imageRow('', 1).id, 1000],
        [imageRow('', 2).id, 2000],
      ]),
    );
    index.sets.set('furry.pair', new Map([[imageRow('', 4).id, 4000]]));
    for (const n of [1, 2, 4]) index.types.set(imageRow('', n).id, ['png', 'still']);
    await service.ensureAll();
    expect(index.calls.rebuild).toBe(2);
    expect(index.sets.get('furry.boop')?.size).toBe(1);
    expect(index.sets.get('furry.pair')?.size).toBe(2);
  });

  it('at start, also rebuilds a category whose type-class sets do not add up to its set (built before they existed)', async () => {
    for (const db of ['furry.hug', 'furry.boop', 'furry.pair']) await service.rebuild(db);
    index.calls.rebuild = 0;
    index.types.delete(imageRow('', 3).id);
    await service.ensureAll();
    expect(index.calls.rebuild).toBe(1);
    expect(index.types.get(imageRow('', 3).id)).toEqual(['png', 'still']);
  });

  it('adds an image to an existing index with its type classes, and rebuilds a missing one whole instead', async () => {
    index.sets.set('furry.hug', new Map());
    await service.add('furry.hug', 'a'.repeat(32), 5, ['gif', 'animated']);
    expect([...index.sets.get('furry.hug')!]).toEqual([['a'.repeat(32), 5]]);
    expect(index.types.get('a'.repeat(32))).toEqual(['gif', 'animated']);
    await service.add('furry.pair', imageRow('', 5).id, 5000, ['png', 'still']);
    expect(index.sets.get('furry.pair')?.size).toBe(2);
    expect(index.calls.rebuild).toBe(1);
  });
});
