import { beforeEach, describe, expect, it } from 'vitest';
import { apiWorld, seedCategories } from '../../test/fakes/api-world.js';
import type { BulkImagesService } from './bulk-images.service.js';

describe('BulkImagesService', () => {
  let service: BulkImagesService;
  let pair: string[];
  beforeEach(async () => {
    const w = apiWorld();
    ({ pair } = await seedCategories(w));
    service = w.services().bulkImages;
  });

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
    await expect(over).rejects.toMatchObject({
      code: 1056,
      message: 'Bulk request total is above your limit: you asked for 4 images and your limit is 3.',
    });
  });

  it('answers 1055 naming the first category that is unknown, disabled, malformed or empty', async () => {
    const ask = (dbs: string[]) =>
      service.bulk(
        dbs.map((db) => ({ db, count: 1 })),
        { limit: 100 },
      );
    await expect(ask(['furry.hug', 'furry.nope', 'furry.closed'])).rejects.toMatchObject({
      code: 1055,
      message: 'Invalid category in bulk request: "furry.nope" does not exist or is disabled.',
    });
    await expect(ask(['furry.closed', 'furry.nope'])).rejects.toMatchObject({
      code: 1055,
      message: expect.stringContaining('"furry.closed"'),
    });
    await expect(ask(['furry.hug', '../etc'])).rejects.toMatchObject({
      code: 1055,
      message: expect.stringContaining('"../etc"'),
    });
    await expect(ask(['furry.hug', 'animals.fox'])).rejects.toMatchObject({
      code: 1055,
      message: 'Invalid category in bulk request: "animals.fox" has no images.',
    });
  });
});
