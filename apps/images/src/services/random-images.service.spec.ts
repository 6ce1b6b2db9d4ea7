import { beforeEach, describe, expect, it } from 'vitest';
import { apiWorld, codeOf, seedCategories, type ApiWorld } from '../../test/fakes/api-world.js';
import type { RandomImagesService } from './random-images.service.js';

describe('RandomImagesService', () => {
  let w: ApiWorld;
  let service: RandomImagesService;
  let hug: string[];
  let pair: string[];
  beforeEach(async () => {
    w = apiWorld();
    ({ hug, pair } = await seedCategories(w));
    service = w.services().randomImages;
  });

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
    expect(w.logger.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'removed stale ids from the size index' }),
    );

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

  it('trusts a category row for categoryCacheMs, then asks again', async () => {
    const cached = w.services(1000).randomImages;
    await cached.random('furry.hug', 1);
    await cached.random('furry.hug', 1);
    expect(w.categories.calls.find).toBe(1);
    await w.categories.setDisabled('furry.hug', true, 'Now closed.');
    expect(await codeOf(cached.random('furry.hug', 1))).toBe('ok');
    w.clock.now += 1001;
    expect(await codeOf(cached.random('furry.hug', 1))).toBe(1030);
  });
});
