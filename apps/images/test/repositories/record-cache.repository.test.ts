import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordCacheRepository } from '../../src/repositories/record-cache.repository.js';
import { imageRow, openStores, type Stores } from './stores.js';

describe('RecordCacheRepository (Redis hash)', () => {
  let stores: Stores;
  let records: RecordCacheRepository;
  beforeAll(async () => {
    stores = await openStores('img-repo-records');
    records = new RecordCacheRepository(stores.redis, stores.config.redis.prefix);
  });
  afterAll(async () => stores.close());

  it('keeps rows whole under their id, in one hash, until removed', async () => {
    const one = imageRow('furry.hug', 1, { artists: ['Zoë'], shortUrl: 'https://short.test/x' });
    const two = imageRow('furry.hug', 2);
    await records.setMany([one, two]);
    await records.setMany([]);
    expect(await stores.redis.hlen(`${stores.config.redis.prefix}{images}:records`)).toBe(2);
    const found = await records.getMany([one.id, 'f'.repeat(32), two.id]);
    expect([...found.entries()]).toEqual([
      [one.id, one],
      [two.id, two],
    ]);
    await records.remove(one.id);
    expect([...(await records.getMany([one.id, two.id])).keys()]).toEqual([two.id]);
    expect((await records.getMany([])).size).toBe(0);
  });

  it('carries the ThumbHash; an entry cached before ThumbHashes existed reads as null', async () => {
    const hashed = imageRow('furry.hug', 3, { thumbhash: 'kxgKNYY3iYdwd4iHeAcIiIeACA==' });
    await records.setMany([hashed]);
    expect((await records.getMany([hashed.id])).get(hashed.id)).toEqual(hashed);
    const old = imageRow('furry.hug', 4);
    const stored = JSON.parse(RecordCacheRepository.encode(old)) as unknown[];
    await stores.redis.hset(
      `${stores.config.redis.prefix}{images}:records`,
      old.id,
      JSON.stringify(stored.slice(0, 11)),
    );
    expect((await records.getMany([old.id])).get(old.id)).toEqual({ ...old, thumbhash: null });
  });
});
