import { jsonInit, request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('SFW categories and sfw_only keys', () => {
  let h: Harness;
  let sfwKey: string;
  let sfwBulkKey: string;
  let bulkKey: string;
  let safeImage: string;
  let adultImage: string;
  const auth = (key: string, extra: Record<string, string> = {}): RequestInit => ({
    headers: { authorization: key, ...extra },
  });

  beforeAll(async () => {
    h = await startHarness('img-sfw');
    const add = await h.cli(['category', 'add', 'animals.birb', '--name', 'Animals > Birb', '--sfw']);
    expect(add).toMatchObject({ code: 0, stdout: 'Added category animals.birb (Animals > Birb), SFW.\n' });
    await h.addCategory('furry.yiff.gay', 'Furry > Yiff > Gay');
    await h.addCategory('furry.closed');
    safeImage = (await h.addImage('animals.birb', 1)).id;
    await h.addImage('animals.birb', 2);
    adultImage = (await h.addImage('furry.yiff.gay', 3)).id;
    sfwKey = await h.key(['sfw_only']);
    sfwBulkKey = await h.key(['images_bulk', 'sfw_only']);
    bulkKey = await h.key(['images_bulk']);
  });
  afterAll(async () => h.close());

  it('shows sfw in /categories and /categories/:db (not SFW unless said)', async () => {
    const listed = await request(`${h.url}/categories`);
    expect(listed.body.data.enabled).toEqual([
      { name: 'Animals > Birb', db: 'animals.birb', sfw: true },
      { name: 'Furry > Yiff > Gay', db: 'furry.yiff.gay', sfw: false },
    ]);
    expect(listed.body.data.disabled).toEqual([
      { name: 'Furry > Closed', db: 'furry.closed', sfw: false, _comment: 'Category has never had any content.' },
    ]);
    expect((await request(`${h.url}/categories/animals.birb`)).body.data).toMatchObject({
      db: 'animals.birb',
      sfw: true,
    });
    expect((await request(`${h.url}/categories/furry.yiff.gay`, auth(sfwKey))).body.data).toMatchObject({
      db: 'furry.yiff.gay',
      sfw: false,
    });
  });

  it('refuses a non-SFW category to an sfw_only key with 403 1058, dotted and slashed, JSON and bytes', async () => {
    for (const path of ['/furry.yiff.gay', '/furry/yiff/gay', '/furry.yiff.gay?amount=5&type=still']) {
      for (const accept of ['application/json', 'image/*']) {
        const res = await request(`${h.url}${path}`, auth(sfwKey, { accept }));
        expect(res.status, `${path} ${accept}`).toBe(403);
        expect(res.body).toEqual({
          success: false,
          code: 1058,
          error: 'This API key may only use SFW categories, and "furry.yiff.gay" is not one.',
        });
      }
    }
  });

  it('gives an sfw_only key SFW categories, and other callers every category', async () => {
    for (const accept of ['application/json', 'image/*']) {
      expect((await request(`${h.url}/animals/birb`, auth(sfwKey, { accept }))).status).toBe(200);
      expect((await request(`${h.url}/furry.yiff.gay`, { headers: { accept } })).status).toBe(200);
      expect((await request(`${h.url}/furry.yiff.gay`, auth(bulkKey, { accept }))).status).toBe(200);
    }
    const birb = await request(`${h.url}/animals.birb?amount=2`, auth(sfwKey));
    expect(birb.body.images).toHaveLength(2);
  });

  it('still answers 1030 for an unknown or disabled category before asking whether it is SFW', async () => {
    expect((await request(`${h.url}/furry.nope`, auth(sfwKey))).body.code).toBe(1030);
    await h.repositories.categories.setDisabled('furry.closed', true, 'Closed.');
    expect((await request(`${h.url}/furry.closed`, auth(sfwKey))).body.code).toBe(1030);
  });

  it('refuses a bulk request naming a non-SFW category to an sfw_only key (1058 names it), and serves an all-SFW one', async () => {
    const refused = await request(
      `${h.url}/bulk`,
      jsonInit('POST', { 'animals.birb': 1, 'furry.yiff.gay': 1 }, { authorization: sfwBulkKey }),
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      code: 1058,
      error: expect.stringContaining('"furry.yiff.gay"'),
    });
    const served = await request(
      `${h.url}/bulk`,
      jsonInit('POST', { 'animals.birb': 2 }, { authorization: sfwBulkKey }),
    );
    expect(served.status).toBe(200);
    expect(served.body.data['animals.birb']).toHaveLength(2);
    const other = await request(
      `${h.url}/bulk`,
      jsonInit('POST', { 'animals.birb': 1, 'furry.yiff.gay': 1 }, { authorization: bulkKey }),
    );
    expect(other.status).toBe(200);
  });

  it('refuses GET /images/:id.json of an image in a non-SFW category to an sfw_only key', async () => {
    const refused = await request(`${h.url}/images/${adultImage}.json`, auth(sfwKey));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(1058);
    expect((await request(`${h.url}/images/${safeImage}.json`, auth(sfwKey))).body.data).toMatchObject({
      id: safeImage,
      category: 'animals.birb',
    });
    expect((await request(`${h.url}/images/${adultImage}.json`)).status).toBe(200);
    expect((await request(`${h.url}/images/${'0'.repeat(32)}.json`, auth(sfwKey))).body.code).toBe(1040);
  });

  it('bin/admin category update marks a category SFW or not, and refuses nothing to change or an unknown category', async () => {
    expect(await h.cli(['category', 'update', 'furry.yiff.gay', '--sfw'])).toMatchObject({
      code: 0,
      stdout: 'Category furry.yiff.gay is SFW.\n',
    });
    expect((await request(`${h.url}/furry.yiff.gay`, auth(sfwKey))).status).toBe(200);
    expect((await h.cli(['category', 'list'])).stdout).toContain(
      'furry.yiff.gay name="Furry > Yiff > Gay" images=1 enabled sfw=yes',
    );
    expect(await h.cli(['category', 'update', 'furry.yiff.gay', '--no-sfw'])).toMatchObject({
      code: 0,
      stdout: 'Category furry.yiff.gay is not SFW.\n',
    });
    expect((await request(`${h.url}/furry.yiff.gay`, auth(sfwKey))).status).toBe(403);
    const nothing = await h.cli(['category', 'update', 'furry.yiff.gay']);
    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toContain('give --sfw or --no-sfw');
    const unknown = await h.cli(['category', 'update', 'furry.nope', '--sfw']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No category furry.nope.');
  });
});
