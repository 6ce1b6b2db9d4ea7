import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from '@pawlink/test-kit';
import { placeholderImage } from '../src/cli/placeholder-image.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('the Redis size index behind random selection', () => {
  let h: Harness;
  const ids = new Map<string, number>();
  const key = () => `${h.config.redis.prefix}images:bysize:furry.hug`;
  beforeAll(async () => {
    h = await startHarness('img-index');
    await h.addCategory('furry.hug');
    for (let seed = 0; seed < 5; seed++) {
      const image = await h.addImage('furry.hug', seed);
      ids.set(image.id, image.size);
    }
  });
  afterAll(async () => h.close());

  it('holds every image of the category scored by size', async () => {
    const members = await h.redis.zrange(key(), 0, -1, 'WITHSCORES');
    const fromRedis = new Map<string, number>();
    for (let i = 0; i < members.length; i += 2) fromRedis.set(members[i]!, Number(members[i + 1]));
    expect(fromRedis).toEqual(ids);
  });

  it('is rebuilt from MySQL at start when missing (ensureIndexes)', async () => {
    await h.redis.del(key());
    await h.service.ensureIndexes();
    expect(await h.redis.zcard(key())).toBe(5);
  });

  it('is rebuilt at start when it holds another number of images than MySQL (an old snapshot)', async () => {
    await h.redis.zrem(key(), [...ids.keys()][1]!);
    await h.service.ensureIndexes();
    expect(new Set(await h.redis.zrange(key(), 0, -1))).toEqual(new Set(ids.keys()));
  });

  it('drops ids whose rows are gone when it picks them, and answers from the images that exist', async () => {
    const ghosts = ['0'.repeat(32), '1'.repeat(32), '2'.repeat(32)];
    for (const ghost of ghosts) await h.redis.zadd(key(), 1, ghost);
    try {
      // sizeLimit=1 leaves only the ghosts eligible: once they are dropped nothing fits (1041, not a 500).
      const none = await request(`${h.url}/furry.hug?amount=5&sizeLimit=1`);
      expect(none.status).toBe(404);
      expect(none.body.code).toBe(1041);
      expect(await h.redis.zmscore(key(), ...ghosts)).toEqual([null, null, null]);
      for (const ghost of ghosts) await h.redis.zadd(key(), 1, ghost);
      // Under the second-smallest size: the ghosts and two real images, five in all, so one pick
      // takes every ghost; the answer is made of the two real ones.
      const [smallest, second] = [...ids.values()].sort((a, b) => a - b);
      const res = await request(`${h.url}/furry.hug?amount=5&sizeLimit=${second}`);
      expect(res.status).toBe(200);
      expect(res.body.images).toHaveLength(5);
      for (const image of res.body.images) expect([smallest, second]).toContain(ids.get(image.id));
      expect(await h.redis.zcard(key())).toBe(ids.size);
    } finally {
      await h.redis.zrem(key(), ...ghosts);
    }
  });

  it('is rebuilt on demand when lost while running', async () => {
    await h.redis.del(key());
    const res = await request(`${h.url}/furry.hug?amount=5`);
    expect(res.status).toBe(200);
    expect(res.body.images).toHaveLength(5);
    expect(await h.redis.zcard(key())).toBe(5);
  });

  it('serves records from the Redis record cache, refilled from MySQL when lost', async () => {
    const records = `${h.config.redis.prefix}images:records`;
    expect(await h.redis.hlen(records)).toBe(5);
    await h.redis.del(records);
    const res = await request(`${h.url}/furry.hug?amount=5`);
    expect(res.status).toBe(200);
    expect(new Set(res.body.images.map((i: { id: string }) => i.id))).toEqual(new Set(ids.keys()));
    expect(await h.redis.hlen(records)).toBe(5);
    const again = await request(`${h.url}/furry.hug?amount=5`);
    expect(again.body.images.map((i: { id: string }) => i.id).sort()).toEqual(res.body.images.map((i: { id: string }) => i.id).sort());
    expect(again.body.images.find((i: { id: string }) => i.id === res.body.images[0].id)).toEqual(res.body.images[0]);
  });

  it('is rebuilt by bin/admin images reindex when stale', async () => {
    await h.redis.zrem(key(), [...ids.keys()][0]!);
    await h.redis.zadd(key(), 1, 'ffffffffffffffffffffffffffffffff');
    const result = await h.cli(['images', 'reindex', 'furry.hug']);
    expect(result).toMatchObject({ code: 0, stdout: 'Reindexed furry.hug: 5 image(s).\n' });
    expect(new Set(await h.redis.zrange(key(), 0, -1))).toEqual(new Set(ids.keys()));
    expect((await h.cli(['images', 'reindex'])).stdout).toBe('Reindexed furry.hug: 5 image(s).\n');
    expect((await h.cli(['images', 'reindex', 'furry.nope'])).code).toBe(1);
  });

  it('rebuilds in keyset pages without losing or duplicating members', async () => {
    const batches: number[] = [];
    for await (const batch of h.deps.images.idsAndSizes('furry.hug', 2)) batches.push(batch.length);
    expect(batches).toEqual([2, 2, 1]);
    await h.redis.del(key());
    expect(await h.deps.sizeIndex.rebuild('furry.hug', h.deps.images.idsAndSizes('furry.hug', 2))).toBe(5);
    expect(await h.redis.zcard(key())).toBe(5);
    expect(await h.redis.keys(`${key()}:rebuild:*`)).toEqual([]);
  });

  it('keeps an import and a removal made while a rebuild runs (the rebuilt set replaces the live one)', async () => {
    const [removed, kept] = [...ids.keys()];
    let resume!: () => void;
    let paused!: () => void;
    const pausedAfterFirstPage = new Promise<void>((resolve) => (paused = resolve));
    async function* pages(): AsyncGenerator<Array<{ id: string; size: number }>> {
      yield [removed!, kept!].map((id) => ({ id, size: ids.get(id)! }));
      paused();
      await new Promise<void>((resolve) => (resume = resolve));
      yield [...ids.keys()].slice(2).map((id) => ({ id, size: ids.get(id)! }));
    }
    const rebuild = h.deps.sizeIndex.rebuild('furry.hug', pages());
    await pausedAfterFirstPage;
    const importedMeanwhile = 'abcdefabcdefabcdefabcdefabcdef01';
    expect(await h.deps.sizeIndex.addIfIndexed('furry.hug', importedMeanwhile, 123)).toBe(true);
    await h.deps.sizeIndex.remove('furry.hug', removed!);
    resume();
    expect(await rebuild).toBe(ids.size);
    const members = new Set(await h.redis.zrange(key(), 0, -1));
    expect(members.has(importedMeanwhile)).toBe(true);
    expect(members.has(removed!)).toBe(false);
    expect(members.size).toBe(ids.size);
    expect(await h.redis.exists(`${key()}:rebuilding`)).toBe(0);
    // Put the index back as MySQL has it for the tests below.
    await h.cli(['images', 'reindex', 'furry.hug']);
    expect(new Set(await h.redis.zrange(key(), 0, -1))).toEqual(new Set(ids.keys()));
  });

  it('is rebuilt, not started over, when an import meets a lost index (the other images stay pickable)', async () => {
    await h.redis.del(key());
    const added = await h.addImage('furry.hug', 5);
    ids.set(added.id, added.size);
    expect(new Set(await h.redis.zrange(key(), 0, -1))).toEqual(new Set(ids.keys()));
    const res = await request(`${h.url}/furry.hug?amount=5`);
    expect(res.body.images).toHaveLength(5);
  });

  it('heals a missing member when the same file is imported again', async () => {
    const [id] = [...ids.keys()];
    await h.redis.zrem(key(), id!);
    const { bytes, ext } = await placeholderImage(0);
    const file = path.join(h.ctx.mediaDir, `again.${ext}`);
    await writeFile(file, bytes);
    expect((await h.cli(['images', 'import', '--category', 'furry.hug', file])).code).toBe(0);
    expect(await h.redis.zscore(key(), id!)).toBe(String(ids.get(id!)));
  });
});

describe('random picks from the size index', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-uniform');
  });
  afterAll(async () => h.close());

  it('draw every pair of images equally often (neighbouring sizes no more than others)', async () => {
    const key = `${h.config.redis.prefix}images:bysize:stats.four`;
    await h.redis.zadd(key, 1, 'a', 2, 'b', 3, 'c', 4, 'd');
    const pairs = new Map<string, number>();
    const draws = 6000;
    for (let i = 0; i < draws; i++) {
      const { ids } = await h.deps.sizeIndex.pick('stats.four', 2);
      expect(new Set(ids).size).toBe(2);
      const pair = [...ids].sort().join('');
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
    // Six pairs, 1000 draws each expected (σ ≈ 29); stepping to the next free rank gave the two
    // non-neighbouring pairs (ac, bd) 750 each. ±130 is 4.5σ.
    expect([...pairs.keys()].sort()).toEqual(['ab', 'ac', 'ad', 'bc', 'bd', 'cd']);
    for (const [pair, count] of pairs) expect(Math.abs(count - draws / 6), pair).toBeLessThan(130);
  });
});
