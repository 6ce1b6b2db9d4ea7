import { jsonInit, request } from '@pawlink/test-kit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJob, startHarness, type Harness } from './support.js';

/** A two-frame image: an animated GIF or WebP. */
async function animatedImage(format: 'gif' | 'webp', seed: number): Promise<Buffer> {
  const frame = (r: number): Promise<Buffer> =>
    sharp({ create: { width: 16, height: 16, channels: 3, background: { r, g: seed, b: 0 } } })
      .png()
      .toBuffer();
  const joined = sharp(await Promise.all([frame(10), frame(200)]), { join: { animated: true } });
  return format === 'gif' ? joined.gif().toBuffer() : joined.webp().toBuffer();
}

describe('GET /:category and POST /bulk with type= and exclude=', () => {
  let h: Harness;
  let bulkKey: string;
  /** id → ext of furry.mix; the placeholders' GIF is a still. */
  const mix = new Map<string, string>();
  const animated = new Set<string>();
  const ids = (res: { body: { images: Array<{ id: string }> } }): string[] => res.body.images.map((i) => i.id);

  beforeAll(async () => {
    h = await startHarness('img-pick-options');
    await h.addCategory('furry.mix');
    await h.addCategory('furry.pngs');
    for (let seed = 0; seed < 6; seed++) {
      const image = await h.addImage('furry.mix', seed);
      mix.set(image.id, image.ext);
    }
    for (const [format, seed] of [
      ['gif', 1],
      ['webp', 2],
    ] as const) {
      const outcome = await h.container.imports.importBytes(
        importJob('furry.mix'),
        `anim.${format}`,
        await animatedImage(format, seed),
      );
      if (outcome.status !== 'imported') throw new Error(JSON.stringify(outcome));
      mix.set(outcome.id, outcome.ext);
      animated.add(outcome.id);
    }
    await h.addImage('furry.pngs', 30);
    bulkKey = await h.key(['images_bulk']);
  });
  afterAll(async () => h.close());

  it('never returns an excluded image while others remain, dotted and slashed, JSON and bytes', async () => {
    const all = [...mix.keys()];
    const [kept, ...rest] = all;
    const exclude = rest.join(',');
    for (let i = 0; i < 10; i++) {
      expect(ids(await request(`${h.url}/furry.mix?exclude=${exclude}`))).toEqual([kept]);
      expect(ids(await request(`${h.url}/furry/mix?exclude=${exclude.toUpperCase()}`))).toEqual([kept]);
      const bytes = await fetch(`${h.url}/furry.mix?exclude=${exclude}`, { headers: { accept: 'image/*' } });
      expect(bytes.status).toBe(200);
      expect(bytes.headers.get('x-yiffy-image-name')).toBe(`${kept}.${mix.get(kept!)}`);
      await bytes.arrayBuffer();
    }
    // Two left: amount=5 gives those two, once each.
    const two = await request(`${h.url}/furry.mix?amount=5&exclude=${all.slice(2).join(',')}`);
    expect(ids(two).sort()).toEqual(all.slice(0, 2).sort());
    // Half excluded, amount=4: the four others, distinct.
    const half = await request(`${h.url}/furry.mix?amount=4&exclude=${all.slice(0, 4).join(',')}`);
    expect(new Set(ids(half))).toEqual(new Set(all.slice(4)));
  });

  it('answers 1041 when the exclusions leave nothing, and ignores ids of other categories', async () => {
    const all = [...mix.keys()];
    const none = await request(`${h.url}/furry.mix?exclude=${all.join(',')}`);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ success: false, code: 1041 });
    const bytes = await request(`${h.url}/furry.mix?exclude=${all.join(',')}`, { headers: { accept: 'image/*' } });
    expect(bytes.status).toBe(404);
    expect(bytes.body.code).toBe(1041);
    const stranger = await request(`${h.url}/furry.pngs?exclude=${all.join(',')}`);
    expect(stranger.status).toBe(200);
  });

  it('returns only images of the type asked for', async () => {
    for (const type of ['png', 'jpg', 'gif', 'webp'] as const) {
      const expected = [...mix].filter(([, ext]) => ext === type).map(([id]) => id);
      const res = await request(`${h.url}/furry.mix?amount=5&type=${type}`);
      expect(res.status, type).toBe(200);
      expect(new Set(ids(res)), type).toEqual(new Set(expected));
    }
    const moving = await request(`${h.url}/furry/mix?amount=5&type=ANIMATED`);
    expect(new Set(ids(moving))).toEqual(animated);
    for (let i = 0; i < 5; i++) {
      const still = await request(`${h.url}/furry.mix?amount=5&type=still`);
      expect(still.body.images).toHaveLength(5);
      for (const id of ids(still)) expect(animated.has(id)).toBe(false);
    }
    const gifBytes = await fetch(`${h.url}/furry.mix?type=gif`, { headers: { accept: 'image/*' } });
    expect(gifBytes.headers.get('content-type')).toBe('image/gif');
    await gifBytes.arrayBuffer();
  });

  it('combines type with exclude and sizeLimit, and answers 1041 when no image of that type fits', async () => {
    const [oneAnimated, otherAnimated] = [...animated];
    for (let i = 0; i < 5; i++)
      expect(ids(await request(`${h.url}/furry.mix?type=animated&exclude=${oneAnimated}`))).toEqual([otherAnimated]);
    const gone = await request(`${h.url}/furry.mix?type=animated&exclude=${oneAnimated},${otherAnimated}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(1041);
    const lacking = await request(`${h.url}/furry.pngs?type=webp`);
    expect(lacking.status).toBe(404);
    expect(lacking.body.code).toBe(1041);
    expect((await request(`${h.url}/furry.mix?type=png&sizeLimit=1`)).body.code).toBe(1041);
  });

  it('refuses bad type and exclude values with 400 1057, JSON and bytes', async () => {
    const id = [...mix.keys()][0]!;
    const tooMany = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(32, '0')).join(',');
    const hundred = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(32, '0')).join(',');
    for (const query of [
      'type=bmp',
      'type=',
      'type=gif&type=png',
      `exclude=${tooMany}`,
      'exclude=',
      'exclude=nope',
      `exclude=${id},`,
      `exclude=${id}&exclude=${id}`,
      `exclude=${id.slice(1)}`,
    ]) {
      for (const accept of ['application/json', 'image/*']) {
        const res = await request(`${h.url}/furry.mix?${query}`, { headers: { accept } });
        expect(res.status, query).toBe(400);
        expect(res.body, query).toMatchObject({ success: false, code: 1057 });
      }
    }
    expect((await request(`${h.url}/furry.mix?type=bmp`)).body.error).toBe(
      'Invalid type: "bmp" is not one of gif, png, jpg, webp, animated, still.',
    );
    expect((await request(`${h.url}/furry.mix?exclude=${tooMany}`)).body.error).toBe(
      'Invalid exclude: at most 100 image ids.',
    );
    expect((await request(`${h.url}/furry.mix?exclude=${hundred}`)).status).toBe(200);
  });

  it('applies type and exclude to every category of a bulk request, and refuses bad values with 1057', async () => {
    const post = (query: string, body: unknown) =>
      request(`${h.url}/bulk${query}`, jsonInit('POST', body, { authorization: bulkKey }));
    const [oneAnimated, otherAnimated] = [...animated];
    const res = await post(`?type=animated&exclude=${oneAnimated}`, { 'furry.mix': 3, 'furry.pngs': 1 });
    expect(res.status).toBe(200);
    // One animated image is left: it comes once, not three times.
    expect(res.body.data['furry.mix'].map((i: { id: string }) => i.id)).toEqual([otherAnimated]);
    expect(res.body.data['furry.pngs']).toEqual([]);
    const bad = await post('?type=tiff', { 'furry.mix': 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(1057);
    const malformed = await post('?exclude=1,2', { 'furry.mix': 1 });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(1057);
  });
});
