import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeCategoryRepository, FakeImageFileRepository, FakeImageRepository, FakeRecordCacheRepository, FakeSizeIndexRepository, fakeLogger } from '../../test/fakes/repositories.fake.js';
import { imageRow } from '../../test/image-row.js';
import { ImagesService } from './images.service.js';
import { SizeIndexService } from './size-index.service.js';

/** The images of `db` as the import leaves them: rows, records and index entries. */
async function store(world: World, db: string, sizes: number[], firstN: number): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, size] of sizes.entries()) {
    const row = imageRow(db, firstN + i, { size });
    world.images.rows.set(row.id, row);
    await world.index.rebuild(db, world.images.idsAndSizes(db));
    ids.push(row.id);
  }
  return ids;
}

interface World {
  images: FakeImageRepository;
  categories: FakeCategoryRepository;
  index: FakeSizeIndexRepository;
  records: FakeRecordCacheRepository;
  logger: ReturnType<typeof fakeLogger>;
  clock: { now: number };
  service(categoryCacheMs?: number): ImagesService;
}

function world(): World {
  const images = new FakeImageRepository();
  const categories = new FakeCategoryRepository(images);
  const records = new FakeRecordCacheRepository();
  const index = new FakeSizeIndexRepository(records);
  const logger = fakeLogger();
  const clock = { now: 1_000_000 };
  const indexing = new SizeIndexService({ index, images, logger });
  return {
    images,
    categories,
    index,
    records,
    logger,
    clock,
    service: (categoryCacheMs = 0) =>
      new ImagesService({ categories, images, records, index, indexing, files: new FakeImageFileRepository(), imagesMediaUrl: 'http://media.test/images', categoryCacheMs, logger, now: () => clock.now }),
  };
}

const codeOf = async (promise: Promise<unknown>): Promise<number | 'ok'> =>
  promise.then(
    () => 'ok' as const,
    (error: { code: number }) => error.code,
  );

describe('ImagesService', () => {
  let w: World;
  let service: ImagesService;
  let hug: string[];
  let pair: string[];
  beforeEach(async () => {
    w = world();
    for (const db of ['furry.hug', 'furry.pair', 'furry.closed', 'animals.fox']) await w.categories.create(db, db);
    await w.categories.setDisabled('furry.closed', true, 'Closed.');
    hug = await store(w, 'furry.hug', [100, 200, 300, 400, 500], 1);
    pair = await store(w, 'furry.pair', [50, 60], 10);
    await store(w, 'furry.closed', [70], 20);
    service = w.service();
  });

  describe('random', () => {
    it('picks distinct images when the category has enough', async () => {
      for (let i = 0; i < 20; i++) {
        const images = await service.random('furry.hug', 3);
        expect(images).toHaveLength(3);
        expect(new Set(images.map((image) => image.id)).size).toBe(3);
        for (const image of images) expect(hug).toContain(image.id);
      }
    });

    it('returns each image once, never a repeat, when the category has fewer than asked', async () => {
      const images = await service.random('furry.pair', 5);
      expect(images.map((image) => image.id).sort()).toEqual([...pair].sort());
    });

    it('renders public records, URLs from IMAGES_MEDIA_URL', async () => {
      const [image] = await service.random('furry.pair', 1, 50);
      expect(image).toEqual({
        id: pair[0],
        url: `http://media.test/images/${pair[0]}.png`,
        name: `${pair[0]}.png`,
        ext: 'png',
        type: 'image/png',
        size: 50,
        width: 10,
        height: 20,
        artists: ['Ann'],
        sources: ['https://example.com/a'],
        reportURL: null,
        shortURL: null,
        thumbhash: null,
      });
    });

    it('only picks images at or under sizeLimit, and answers 1041 when none is', async () => {
      const images = await service.random('furry.hug', 5, 250);
      // Two fit: each once.
      expect(images.map((image) => image.size).sort()).toEqual([100, 200]);
      expect(await codeOf(service.random('furry.hug', 1, 99))).toBe(1041);
      expect(await codeOf(service.random('furry.hug', 1, 0))).toBe(1041);
    });

    it('answers 1030 for an unknown, disabled or empty category, and for a key that names none', async () => {
      expect(await codeOf(service.random('furry.nope', 1))).toBe(1030);
      expect(await codeOf(service.random('furry.closed', 1))).toBe(1030);
      expect(await codeOf(service.random('animals.fox', 1))).toBe(1030);
      const asked = w.categories.calls.find;
      expect(await codeOf(service.random('../etc', 1))).toBe(1030);
      expect(w.categories.calls.find).toBe(asked);
    });

    it('drops ids whose rows are gone and picks again, so they neither shorten the answer nor cause 1041', async () => {
      const ghosts = ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32)];
      for (const ghost of ghosts) w.index.sets.get('furry.pair')!.set(ghost, 1);
      const images = await service.random('furry.pair', 5);
      // Every image that exists, once: the ghosts took no place in the answer.
      expect(images.map((image) => image.id).sort()).toEqual([...pair].sort());
      expect([...w.index.sets.get('furry.pair')!.keys()].sort()).toEqual([...pair].sort());
      expect(w.logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', message: 'removed stale ids from the size index' }));

      // Only ghosts fit the limit: once they are gone nothing does (1041, not an error).
      for (const ghost of ghosts) w.index.sets.get('furry.pair')!.set(ghost, 1);
      expect(await codeOf(service.random('furry.pair', 5, 10))).toBe(1041);
      expect(w.index.calls.remove).toEqual(expect.arrayContaining(ghosts));
    });

    it('rebuilds a lost index from MySQL on the first request that finds it empty', async () => {
      w.index.sets.delete('furry.hug');
      const images = await service.random('furry.hug', 5);
      expect(new Set(images.map((image) => image.id))).toEqual(new Set(hug));
      expect(w.index.sets.get('furry.hug')?.size).toBe(5);
    });

    it('reads records from the record cache, and fills it from MySQL on a miss', async () => {
      await service.random('furry.pair', 2);
      expect(w.images.calls.findByIds).toBe(1);
      expect([...w.records.rows.keys()].sort()).toEqual([...pair].sort());
      await service.random('furry.pair', 2);
      expect(w.images.calls.findByIds).toBe(1);
    });

    it('gives the file of one random image', async () => {
      const { image, file } = await service.randomFile('furry.pair');
      expect(pair).toContain(image.id);
      expect(file).toBe(`/media/images/${image.id}.png`);
      expect(await codeOf(service.randomFile('furry.pair', 1))).toBe(1041);
    });
  });

  describe('bulk', () => {
    it('picks per category, each image once when a category has fewer than asked, with an empty list where nothing fits sizeLimit', async () => {
      const data = await service.bulk(
        [
          { db: 'furry.hug', count: 4 },
          { db: 'furry.pair', count: 3 },
        ],
        { limit: 100 },
      );
      expect(new Set(data['furry.hug']!.map((image) => image.id)).size).toBe(4);
      expect(data['furry.pair']!.map((image) => image.id).sort()).toEqual([...pair].sort());
      const limited = await service.bulk(
        [
          { db: 'furry.hug', count: 2 },
          { db: 'furry.pair', count: 2 },
        ],
        { limit: 100, sizeLimit: 55 },
      );
      // One pair image fits under 55 bytes: it comes once for the two asked.
      expect(limited).toEqual({ 'furry.hug': [], 'furry.pair': [expect.objectContaining({ id: pair[0], size: 50 })] });
    });

    it('answers 1056 naming the total and the limit when the counts add up to more than the key may ask', async () => {
      const over = service.bulk(
        [
          { db: 'furry.hug', count: 2 },
          { db: 'furry.nope', count: 2 },
        ],
        { limit: 3 },
      );
      await expect(over).rejects.toMatchObject({ code: 1056, message: 'Bulk request total is above your limit: you asked for 4 images and your limit is 3.' });
    });

    it('answers 1055 naming the first category that is unknown, disabled, malformed or empty', async () => {
      const ask = (dbs: string[]) => service.bulk(dbs.map((db) => ({ db, count: 1 })), { limit: 100 });
      await expect(ask(['furry.hug', 'furry.nope', 'furry.closed'])).rejects.toMatchObject({ code: 1055, message: 'Invalid category in bulk request: "furry.nope" does not exist or is disabled.' });
      await expect(ask(['furry.closed', 'furry.nope'])).rejects.toMatchObject({ code: 1055, message: expect.stringContaining('"furry.closed"') });
      await expect(ask(['furry.hug', '../etc'])).rejects.toMatchObject({ code: 1055, message: expect.stringContaining('"../etc"') });
      await expect(ask(['furry.hug', 'animals.fox'])).rejects.toMatchObject({ code: 1055, message: 'Invalid category in bulk request: "animals.fox" has no images.' });
    });
  });

  describe('categories and images', () => {
    it('lists enabled categories, and disabled ones with their comment (empty → never had content)', async () => {
      expect(await service.listCategories()).toEqual({
        enabled: [
          { name: 'furry.hug', db: 'furry.hug', sfw: false },
          { name: 'furry.pair', db: 'furry.pair', sfw: false },
        ],
        disabled: [
          { name: 'animals.fox', db: 'animals.fox', sfw: false, _comment: NEVER_HAD_CONTENT_COMMENT },
          { name: 'furry.closed', db: 'furry.closed', sfw: false, _comment: 'Closed.' },
        ],
      });
    });

    it('aggregates a category, and answers 1030 for an unknown one', async () => {
      w.images.rows.set(imageRow('furry.hug', 9).id, imageRow('furry.hug', 9, { size: 3 * 1024 * 1024, mimeType: 'image/gif' }));
      expect(await service.categoryInfo('furry.hug')).toEqual({
        name: 'furry.hug',
        db: 'furry.hug',
        sfw: false,
        disabled: false,
        files: {
          exists: true,
          list: { total: 6, size: { total: 3147228, totalM: 3.001, average: 524538, averageM: 0.5 }, types: { 'image/gif': 1, 'image/png': 5 } },
        },
      });
      expect(await service.categoryInfo('animals.fox')).toMatchObject({ disabled: true, _comment: NEVER_HAD_CONTENT_COMMENT, files: { exists: false, list: { total: 0, types: {} } } });
      expect(await service.categoryInfo('furry.closed')).toMatchObject({ disabled: true, _comment: 'Closed.', files: { exists: true } });
      expect(await codeOf(service.categoryInfo('furry.nope'))).toBe(1030);
    });

    it('trusts a category row for categoryCacheMs, then asks again', async () => {
      const cached = w.service(1000);
      await cached.random('furry.hug', 1);
      await cached.random('furry.hug', 1);
      expect(w.categories.calls.find).toBe(1);
      await w.categories.setDisabled('furry.hug', true, 'Now closed.');
      expect(await codeOf(cached.random('furry.hug', 1))).toBe('ok');
      w.clock.now += 1001;
      expect(await codeOf(cached.random('furry.hug', 1))).toBe(1030);
    });

    it('finds one image with its category, and answers 1040 for an unknown id', async () => {
      expect(await service.image(hug[0]!)).toMatchObject({ id: hug[0], category: 'furry.hug', size: 100 });
      expect(await codeOf(service.image('f'.repeat(32)))).toBe(1040);
    });
  });
});
