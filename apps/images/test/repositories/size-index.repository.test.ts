import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryRepository } from '../../src/repositories/category.repository.js';
import { ImageRepository } from '../../src/repositories/image.repository.js';
import { RecordCacheRepository } from '../../src/repositories/record-cache.repository.js';
import type { IdAndSize } from '../../src/repositories/image.repository.js';
import { SizeIndexRepository } from '../../src/repositories/size-index.repository.js';
import { imageRow, openStores, type Stores } from './stores.js';

describe('SizeIndexRepository (Redis sorted sets)', () => {
  let stores: Stores;
  let index: SizeIndexRepository;
  let images: ImageRepository;
  const ids = new Map<string, number>();
  const key = () => `${stores.config.redis.prefix}{images}:bysize:furry.hug`;
  beforeAll(async () => {
    stores = await openStores('img-repo-index');
    index = new SizeIndexRepository(stores.redis, stores.config.redis.prefix);
    images = new ImageRepository(stores.images);
    await new CategoryRepository(stores.images).create('furry.hug', 'Furry > Hug');
    for (let n = 1; n <= 5; n++) {
      const row = imageRow('furry.hug', n, { size: 1000 * n });
      await images.insert(row);
      ids.set(row.id, row.size);
    }
  });
  afterAll(async () => stores.close());

  it('adds nothing to a missing set (a lost index must be rebuilt whole), and is 0 in size', async () => {
    expect(await index.addIfIndexed('furry.hug', 'f'.repeat(32), 1)).toBe(false);
    expect(await stores.redis.exists(key())).toBe(0);
    expect(await index.size('furry.hug')).toBe(0);
  });

  it('rebuilds in keyset pages without losing or duplicating members', async () => {
    const batches: number[] = [];
    for await (const batch of images.idsAndSizes('furry.hug', 2)) batches.push(batch.length);
    expect(batches).toEqual([2, 2, 1]);
    await stores.redis.del(key());
    expect(await index.rebuild('furry.hug', images.idsAndSizes('furry.hug', 2))).toBe(5);
    expect(await stores.redis.zcard(key())).toBe(5);
    expect(await stores.redis.keys(`${key()}:rebuild:*`)).toEqual([]);
    const members = await stores.redis.zrange(key(), 0, -1, 'WITHSCORES');
    const fromRedis = new Map<string, number>();
    for (let i = 0; i < members.length; i += 2) fromRedis.set(members[i]!, Number(members[i + 1]));
    expect(fromRedis).toEqual(ids);
  });

  it('keeps an import and a removal made while a rebuild runs (the rebuilt set replaces the live one)', async () => {
    const [removed, kept] = [...ids.keys()];
    let resume!: () => void;
    let paused!: () => void;
    const pausedAfterFirstPage = new Promise<void>((resolve) => (paused = resolve));
    async function* pages(): AsyncGenerator<IdAndSize[]> {
      yield [removed!, kept!].map((id) => ({ id, size: ids.get(id)!, ext: 'png', animated: false }));
      paused();
      await new Promise<void>((resolve) => (resume = resolve));
      yield [...ids.keys()].slice(2).map((id) => ({ id, size: ids.get(id)!, ext: 'png', animated: false }));
    }
    const rebuild = index.rebuild('furry.hug', pages());
    await pausedAfterFirstPage;
    const importedMeanwhile = 'abcdefabcdefabcdefabcdefabcdef01';
    expect(await index.addIfIndexed('furry.hug', importedMeanwhile, 123)).toBe(true);
    await index.remove('furry.hug', removed!);
    resume();
    expect(await rebuild).toBe(ids.size);
    const members = new Set(await stores.redis.zrange(key(), 0, -1));
    expect(members.has(importedMeanwhile)).toBe(true);
    expect(members.has(removed!)).toBe(false);
    expect(members.size).toBe(ids.size);
    expect(await stores.redis.exists(`${key()}:rebuilding`)).toBe(0);
    // Put the index back as MySQL has it for the tests below.
    expect(await index.rebuild('furry.hug', images.idsAndSizes('furry.hug'))).toBe(ids.size);
  });

  it('picks distinct ids, only among those at or under the size limit, and counts both', async () => {
    const all = await index.pick('furry.hug', 5);
    expect(all.total).toBe(5);
    expect(all.eligible).toBe(5);
    expect(new Set(all.ids)).toEqual(new Set(ids.keys()));
    const small = await index.pick('furry.hug', 5, 2000);
    expect(small).toMatchObject({ total: 5, eligible: 2 });
    expect(small.ids.every((id) => ids.get(id)! <= 2000)).toBe(true);
    expect(new Set(small.ids).size).toBe(2);
    expect(await index.pick('furry.hug', 3, 1)).toEqual({ total: 5, eligible: 0, ids: [], rows: new Map() });
    const three = await index.pick('furry.hug', 3);
    expect(new Set(three.ids).size).toBe(3);
    expect(await index.pick('furry.none', 3)).toEqual({ total: 0, eligible: 0, ids: [], rows: new Map() });
  });

  it("reads the picked ids' records from the record cache in the same round trip", async () => {
    const rows = await images.findByIds([...ids.keys()]);
    const cached = rows.slice(0, 3);
    await new RecordCacheRepository(stores.redis, stores.config.redis.prefix).setMany(cached);
    const pick = await index.pick('furry.hug', 5);
    expect(new Set(pick.rows.keys())).toEqual(new Set(cached.map((row) => row.id)));
    for (const row of cached) expect(pick.rows.get(row.id)).toEqual(row);
  });

  it('removes a member, and a rebuild from nothing leaves no set', async () => {
    const [first] = [...ids.keys()];
    await index.remove('furry.hug', first!);
    expect(await index.size('furry.hug')).toBe(4);
    async function* none(): AsyncGenerator<IdAndSize[]> {}
    expect(await index.rebuild('furry.hug', none())).toBe(0);
    expect(await stores.redis.exists(key())).toBe(0);
  });

  it('draws every pair of images equally often (neighbouring sizes no more than others)', async () => {
    await stores.redis.zadd(`${stores.config.redis.prefix}{images}:bysize:stats.four`, 1, 'a', 2, 'b', 3, 'c', 4, 'd');
    const pairs = new Map<string, number>();
    const draws = 6000;
    for (let i = 0; i < draws; i++) {
      const { ids: picked } = await index.pick('stats.four', 2);
      expect(new Set(picked).size).toBe(2);
      const pair = [...picked].sort().join('');
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
    // Six pairs, 1000 draws each expected (σ ≈ 29); stepping to the next free rank gave the two
    // non-neighbouring pairs (ac, bd) 750 each. ±130 is 4.5σ.
    expect([...pairs.keys()].sort()).toEqual(['ab', 'ac', 'ad', 'bc', 'bd', 'cd']);
    for (const [pair, count] of pairs) expect(Math.abs(count - draws / 6), pair).toBeLessThan(130);
  });
});
