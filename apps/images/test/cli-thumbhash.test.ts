import { rm } from 'node:fs/promises';
import { request } from '@pawlink/test-kit';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

const thumbhashOf = async (h: Harness, id: string): Promise<string | null> =>
  (await h.images.query<Array<{ thumbhash: string | null }>>('SELECT thumbhash FROM images WHERE id = ?', [id]))[0]!
    .thumbhash;

describe('ThumbHashes of images', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-thumbhash');
    await h.addCategory('furry.hash', 'Furry > Hash');
  });
  afterAll(async () => h.close());

  it('are computed at import, stored in the row and the cached record, and shown in the record', async () => {
    const image = await h.addImage('furry.hash', 1);
    const stored = await thumbhashOf(h, image.id);
    expect(stored).toMatch(/^[A-Za-z0-9+/]{6,}={0,2}$/);
    expect((await h.repositories.records.getMany([image.id])).get(image.id)?.thumbhash).toBe(stored);
    const res = await request(`${h.url}/images/${image.id}.json`);
    expect(res.body.data.thumbhash).toBe(stored);
    const meta = (
      await h.images.query<Array<{ width: number; height: number }>>('SELECT width, height FROM images WHERE id = ?', [
        image.id,
      ])
    )[0]!;
    expect(thumbHashToApproximateAspectRatio(Buffer.from(stored!, 'base64'))).toBeCloseTo(meta.width / meta.height, 0);
  });

  it('`bin/admin images thumbhash` fills in the missing ones, row and cached record, and reports files it cannot read (exit 1)', async () => {
    const old = await h.addImage('furry.hash', 2);
    const lost = await h.addImage('furry.hash', 3);
    const kept = await thumbhashOf(h, old.id);
    // as if imported before ThumbHashes: null in MySQL, absent from the cached record
    await h.images.query('UPDATE images SET thumbhash = NULL WHERE id IN (?)', [[old.id, lost.id]]);
    const recordsKey = `${h.config.redis.prefix}{images}:records`;
    const cached = JSON.parse((await h.redis.hget(recordsKey, old.id))!) as unknown[];
    await h.redis.hset(recordsKey, old.id, JSON.stringify(cached.slice(0, 11)));
    expect((await request(`${h.url}/images/${old.id}.json`)).body.data.thumbhash).toBeNull();
    await rm(h.repositories.files.pathOf(lost.id, lost.ext));

    const run = await h.cli(['images', 'thumbhash']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`failed ${lost.id}: `);
    expect(run.stdout).toContain('Computed 1 ThumbHash(es); 1 image(s) failed.');
    expect(run.stderr).toContain('1 image(s) have no readable file');
    expect(await thumbhashOf(h, old.id)).toBe(kept);
    expect(await thumbhashOf(h, lost.id)).toBeNull();
    expect((await h.repositories.records.getMany([old.id])).get(old.id)?.thumbhash).toBe(kept);
    expect((await request(`${h.url}/images/${old.id}.json`)).body.data.thumbhash).toBe(kept);

    // run again: only the image still without one is visited
    const again = await h.cli(['images', 'thumbhash']);
    expect(again.stdout).toContain('Computed 0 ThumbHash(es); 1 image(s) failed.');
  });

  it('`bin/admin images thumbhash` with nothing to do says so and exits 0', async () => {
    await h.images.query('DELETE FROM images WHERE thumbhash IS NULL');
    const run = await h.cli(['images', 'thumbhash']);
    expect(run).toMatchObject({ code: 0, stdout: 'Computed 0 ThumbHash(es); 0 image(s) failed.\n' });
  });
});
