import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdAndSize } from '../../src/repositories/image.repository.js';
import { SizeIndexRepository } from '../../src/repositories/size-index.repository.js';
import { openStores, type Stores } from './stores.js';

const FORMATS = ['png', 'jpg', 'gif', 'webp'] as const;
const CATEGORY_SIZE = 4000;

/** Entry n of the big category: format by n, GIFs and every other WebP animated, sizes 1000·(n+1). */
function entry(n: number): IdAndSize {
  const ext = FORMATS[n % FORMATS.length]!;
  return {
    id: createHash('md5').update(`filters:${n}`).digest('hex'),
    size: 1000 * (n + 1),
    ext,
    animated: ext === 'gif' || (ext === 'webp' && n % 8 === 3),
  };
}

/** Pages of 500, as MySQL's keyset pages would come. */
async function* pagesOf(entries: IdAndSize[]): AsyncGenerator<IdAndSize[]> {
  for (let i = 0; i < entries.length; i += 500) yield await Promise.resolve(entries.slice(i, i + 500));
}

describe('SizeIndexRepository: type and exclude picks (Redis sorted sets)', () => {
  let stores: Stores;
  let index: SizeIndexRepository;
  const entries = Array.from({ length: CATEGORY_SIZE }, (_, n) => entry(n));
  const byId = new Map(entries.map((e) => [e.id, e]));
  beforeAll(async () => {
    stores = await openStores('img-repo-filters');
    index = new SizeIndexRepository(stores.redis, stores.config.redis.prefix);
    expect(await index.rebuild('big', pagesOf(entries))).toBe(CATEGORY_SIZE);
  });
  afterAll(async () => stores.close());

  it('keeps one set per type class beside the category set, filled by the rebuild', async () => {
    expect(await index.size('big')).toBe(CATEGORY_SIZE);
    expect(await index.typedSize('big')).toBe(CATEGORY_SIZE);
    for (const ext of FORMATS) expect(await stores.redis.zcard(index.typeKey('big', ext))).toBe(CATEGORY_SIZE / 4);
    expect(await stores.redis.zcard(index.typeKey('big', 'animated'))).toBe(entries.filter((e) => e.animated).length);
    expect(await stores.redis.keys(`${index.key('big')}:rebuild:*`)).toEqual([]);
  });

  it(`never returns an excluded id from ${CATEGORY_SIZE} images, with or without a size limit or a type`, async () => {
    // 100 ids spread over the ranks, the smallest ones among them (rank 0, 1) included.
    const excluded = entries
      .filter((_, n) => n < 2 || n % 40 === 7)
      .slice(0, 100)
      .map((e) => e.id);
    expect(excluded).toHaveLength(100);
    const refused = new Set(excluded);
    for (let i = 0; i < 300; i++) {
      const filter = { exclude: excluded, ...(i % 3 === 2 ? { type: 'gif' as const } : {}) };
      const sizeLimit = i % 3 === 1 ? 200_000 : undefined;
      const pick = await index.pick('big', 5, sizeLimit, filter);
      expect(pick.total).toBe(CATEGORY_SIZE);
      expect(pick.ids).toHaveLength(5);
      expect(new Set(pick.ids).size).toBe(5);
      for (const id of pick.ids) {
        expect(refused.has(id), id).toBe(false);
        if (sizeLimit !== undefined) expect(byId.get(id)!.size).toBeLessThanOrEqual(sizeLimit);
        if (filter.type) expect(byId.get(id)!.ext).toBe('gif');
      }
    }
  }, 120_000);

  it('returns exactly what remains when the exclusions leave fewer than asked, and nothing when they leave none', async () => {
    // Under 6000 bytes: the five smallest (n = 0…4).
    const smallest = entries.slice(0, 5).map((e) => e.id);
    const pick = await index.pick('big', 5, 5000, { exclude: smallest.slice(0, 3) });
    expect(pick.eligible).toBe(2);
    expect(new Set(pick.ids)).toEqual(new Set(smallest.slice(3, 5)));
    const none = await index.pick('big', 5, 5000, { exclude: smallest.slice(0, 5) });
    expect(none).toMatchObject({ total: CATEGORY_SIZE, eligible: 0, ids: [] });
  });

  it('ignores excluded ids that are not in the category, and draws the remaining images equally often', async () => {
    // Under 5000 bytes: n = 0…3 (png, jpg, gif, webp); excluding n = 1 leaves three.
    const [a, b, c, d] = entries.slice(0, 4).map((e) => e.id);
    const counts = new Map<string, number>();
    const draws = 1500;
    for (let i = 0; i < draws; i++) {
      const { ids } = await index.pick('big', 1, 4000, { exclude: [b!, 'f'.repeat(32)] });
      counts.set(ids[0]!, (counts.get(ids[0]!) ?? 0) + 1);
    }
    expect(new Set(counts.keys())).toEqual(new Set([a, c, d]));
    // 500 expected each (σ ≈ 18); ±90 is 5σ.
    for (const [id, count] of counts) expect(Math.abs(count - draws / 3), id).toBeLessThan(90);
  }, 120_000);

  it('picks only images of the type asked for, and answers none for a type the category lacks', async () => {
    const animated = new Set(entries.filter((e) => e.animated).map((e) => e.id));
    for (let i = 0; i < 50; i++) {
      for (const id of (await index.pick('big', 5, undefined, { type: 'animated' })).ids)
        expect(animated.has(id)).toBe(true);
      for (const id of (await index.pick('big', 5, undefined, { type: 'still' })).ids)
        expect(animated.has(id)).toBe(false);
      for (const id of (await index.pick('big', 5, undefined, { type: 'webp' })).ids)
        expect(byId.get(id)!.ext).toBe('webp');
    }
    await index.rebuild('pngs', pagesOf([entry(0), entry(4)]));
    expect(await index.pick('pngs', 5, undefined, { type: 'gif' })).toMatchObject({ total: 2, eligible: 0, ids: [] });
  });

  it('adds to and removes from the type-class sets with the category set', async () => {
    await index.rebuild('small', pagesOf([entry(0)]));
    const gif = 'a'.repeat(32);
    expect(await index.addIfIndexed('small', gif, 10, ['gif', 'animated'])).toBe(true);
    expect((await index.pick('small', 5, undefined, { type: 'animated' })).ids).toEqual([gif]);
    await index.remove('small', gif);
    expect(await stores.redis.zscore(index.typeKey('small', 'gif'), gif)).toBeNull();
    expect(await stores.redis.zscore(index.typeKey('small', 'animated'), gif)).toBeNull();
    expect(await index.typedSize('small')).toBe(1);
  });

  it('a rebuild replaces the type-class sets too: a type no longer present is gone', async () => {
    await index.rebuild('swap', pagesOf([entry(2), entry(0)]));
    expect(await stores.redis.exists(index.typeKey('swap', 'gif'))).toBe(1);
    await index.rebuild('swap', pagesOf([entry(0)]));
    expect(await stores.redis.exists(index.typeKey('swap', 'gif'))).toBe(0);
    expect(await index.typedSize('swap')).toBe(1);
    await index.rebuild('swap', pagesOf([]));
    expect(await stores.redis.keys(`${index.key('swap')}*`)).toEqual([]);
  });
});
