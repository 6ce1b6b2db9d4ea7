import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholderImage, startHarness, type Harness } from './support.js';

describe('the Redis size index behind random selection', () => {
  let h: Harness;
  const ids = new Map<string, number>();
  const key = () => `${h.config.redis.prefix}{images}:bysize:furry.hug`;
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

  it('is rebuilt from MySQL at start when missing (ensureAll)', async () => {
    await h.redis.del(key());
    await h.container.sizeIndex.ensureAll();
    expect(await h.redis.zcard(key())).toBe(5);
  });

  it('is rebuilt at start when it holds another number of images than MySQL (an old snapshot)', async () => {
    await h.redis.zrem(key(), [...ids.keys()][1]!);
    await h.container.sizeIndex.ensureAll();
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
      // takes every ghost; the answer is the two real ones, once each.
      const [smallest, second] = [...ids.values()].sort((a, b) => a - b);
      const res = await request(`${h.url}/furry.hug?amount=5&sizeLimit=${second}`);
      expect(res.status).toBe(200);
      expect(
        res.body.images.map((image: { id: string }) => ids.get(image.id)).sort((a: number, b: number) => a - b),
      ).toEqual([smallest, second]);
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
    const records = `${h.config.redis.prefix}{images}:records`;
    expect(await h.redis.hlen(records)).toBe(5);
    await h.redis.del(records);
    const res = await request(`${h.url}/furry.hug?amount=5`);
    expect(res.status).toBe(200);
    expect(new Set(res.body.images.map((i: { id: string }) => i.id))).toEqual(new Set(ids.keys()));
    expect(await h.redis.hlen(records)).toBe(5);
    const again = await request(`${h.url}/furry.hug?amount=5`);
    expect(again.body.images.map((i: { id: string }) => i.id).sort()).toEqual(
      res.body.images.map((i: { id: string }) => i.id).sort(),
    );
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
