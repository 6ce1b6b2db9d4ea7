import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageFileRepository } from '../src/repositories/image-file.repository.js';
import { DEMO_ARTIST, DEMO_CATEGORIES } from '../src/domain/demo-categories.policy.js';
import { placeholderImage, startHarness, type Harness } from './support.js';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

describe('bin/admin category and images commands', () => {
  let h: Harness;
  let inbox: string;
  const rows = async (category: string): Promise<number> =>
    Number(
      (
        await h.images.query<Array<{ n: string }>>('SELECT COUNT(*) AS n FROM images WHERE category = ?', [category])
      )[0]!.n,
    );

  beforeAll(async () => {
    h = await startHarness('img-cli');
    inbox = path.join(h.ctx.mediaDir, 'inbox');
    await mkdir(inbox, { recursive: true });
  });
  afterAll(async () => h.close());

  it('adds, lists, disables and enables categories', async () => {
    const added = await h.cli(['category', 'add', 'furry.hug', '--name', 'Furry > Hug']);
    expect(added.stderr).toBe('');
    expect(added).toMatchObject({ code: 0, stdout: 'Added category furry.hug (Furry > Hug).\n' });
    const again = await h.cli(['category', 'add', 'furry.hug', '--name', 'Furry > Hug']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect((await h.cli(['category', 'list'])).stdout).toBe(
      'furry.hug name="Furry > Hug" images=0 disabled (no content) sfw=no\n',
    );

    const listed = await request(`${h.url}/categories`);
    expect(listed.body.data.disabled).toEqual([
      { name: 'Furry > Hug', db: 'furry.hug', sfw: false, _comment: NEVER_HAD_CONTENT_COMMENT },
    ]);
  });

  it('rejects bad arguments as usage errors (exit 2)', async () => {
    expect((await h.cli(['category', 'add', 'Furry Hug', '--name', 'Furry > Hug'])).code).toBe(2);
    expect((await h.cli(['category', 'add', 'furry.x'])).code).toBe(2);
    expect((await h.cli(['category', 'add', 'nodot', '--name', 'A > B'])).code).toBe(2);
    expect((await h.cli(['category', 'add', 'furry.x', '--name', 'NoGroup'])).code).toBe(2);
    expect((await h.cli(['category', 'disable', 'furry.hug'])).code).toBe(2);
    expect((await h.cli(['images', 'import', 'x.png'])).code).toBe(2);
    expect((await h.cli(['images', 'import', '--category', 'furry.hug', '--source', 'not a url', 'x.png'])).code).toBe(
      2,
    );
    expect((await h.cli(['images', 'remove', 'xyz'])).code).toBe(2);
  });

  it('imports a file once: the same file twice adds one row, and the file is placed under MEDIA_DIR/images', async () => {
    const { bytes } = await placeholderImage(0);
    const file = path.join(inbox, 'hug.png');
    await writeFile(file, bytes);
    const first = await h.cli([
      'images',
      'import',
      '--category',
      'furry.hug',
      '--artist',
      'Ann',
      '--artist',
      'Bob',
      '--source',
      'https://example.com/1',
      file,
    ]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`imported ${file} → ${md5(bytes)}.png`);
    const second = await h.cli(['images', 'import', '--category', 'furry.hug', file]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`skipped ${file}: duplicate of ${md5(bytes)}`);
    expect(await rows('furry.hug')).toBe(1);

    const placed = path.join(h.config.mediaDir, 'images', `${md5(bytes)}.png`);
    expect(md5(await readFile(placed))).toBe(md5(bytes));
    const info = await request(`${h.url}/images/${md5(bytes)}.json`);
    expect(info.body.data).toMatchObject({
      category: 'furry.hug',
      artists: ['Ann', 'Bob'],
      sources: ['https://example.com/1'],
      type: 'image/png',
      width: 320,
      height: 240,
    });
  });

  it('reads the type from the bytes, reports non-images in a folder and continues (exit 1)', async () => {
    await h.cli(['category', 'add', 'furry.boop', '--name', 'Furry > Boop']);
    const folder = path.join(inbox, 'batch');
    await mkdir(path.join(folder, 'nested'), { recursive: true });
    const jpeg = await placeholderImage(1);
    const gif = await placeholderImage(2);
    await writeFile(path.join(folder, 'a-really-a-jpeg.png'), jpeg.bytes);
    await writeFile(path.join(folder, 'b-notes.txt'), 'hello, not an image');
    await writeFile(path.join(folder, 'c-fake.png'), 'PNG? no.');
    await writeFile(path.join(folder, '.DS_Store'), 'hidden files in a folder are not candidates');
    await writeFile(path.join(folder, 'nested', 'd.gif'), gif.bytes);
    const result = await h.cli(['images', 'import', '--category', 'furry.boop', folder]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`failed ${path.join(folder, 'b-notes.txt')}: not an image`);
    expect(result.stdout).toContain(`failed ${path.join(folder, 'c-fake.png')}: not an image`);
    expect(result.stdout).toContain('Imported 2, skipped 0 duplicate(s), 2 failed, into furry.boop.');
    expect(result.stderr).toContain('2 file(s) could not be imported');
    expect(await rows('furry.boop')).toBe(2);
    const stored = await request(`${h.url}/images/${md5(jpeg.bytes)}.json`);
    expect(stored.body.data).toMatchObject({ ext: 'jpg', type: 'image/jpeg' });
    expect((await request(`${h.url}/images/${md5(gif.bytes)}.json`)).body.data).toMatchObject({
      ext: 'gif',
      type: 'image/gif',
    });
  });

  it('takes artists and sources per file from a sidecar JSON', async () => {
    await h.cli(['category', 'add', 'animals.birb', '--name', 'Animals > Birb']);
    const folder = path.join(inbox, 'sidecar');
    await mkdir(folder, { recursive: true });
    const one = await placeholderImage(3);
    const two = await placeholderImage(4);
    await writeFile(path.join(folder, 'one.png'), one.bytes);
    await writeFile(path.join(folder, 'two.jpg'), two.bytes);
    const sidecar = path.join(folder, 'meta.json');
    await writeFile(
      sidecar,
      JSON.stringify({
        'one.png': {
          artists: ['Sidecar Artist'],
          sources: ['https://example.com/one'],
          reportURL: 'https://example.com/report',
        },
      }),
    );
    const result = await h.cli([
      'images',
      'import',
      '--category',
      'animals.birb',
      '--artist',
      'Flag Artist',
      '--meta',
      sidecar,
      folder,
    ]);
    expect(result.code).toBe(0);
    expect((await request(`${h.url}/images/${md5(one.bytes)}.json`)).body.data).toMatchObject({
      artists: ['Sidecar Artist'],
      sources: ['https://example.com/one'],
      reportURL: 'https://example.com/report',
    });
    expect((await request(`${h.url}/images/${md5(two.bytes)}.json`)).body.data).toMatchObject({
      artists: ['Flag Artist'],
      sources: [],
    });

    const broken = path.join(inbox, 'broken.json');
    await writeFile(broken, JSON.stringify({ 'one.png': { artists: 'not a list' } }));
    const bad = await h.cli(['images', 'import', '--category', 'animals.birb', '--meta', broken, folder]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('artists must be an array of strings');
  });

  it('fails on an unknown category or a missing path (exit 1)', async () => {
    const unknown = await h.cli(['images', 'import', '--category', 'furry.nope', inbox]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No category furry.nope');
    const missing = await h.cli(['images', 'import', '--category', 'furry.hug', path.join(inbox, 'missing.png')]);
    expect(missing.code).toBe(1);
  });

  it('disables a category: listed with the comment, random answers 1030; enable restores it', async () => {
    expect((await h.cli(['category', 'disable', 'furry.hug', '--comment', 'Being moderated.'])).code).toBe(0);
    const listed = await request(`${h.url}/categories`);
    expect(listed.body.data.disabled).toContainEqual({
      name: 'Furry > Hug',
      db: 'furry.hug',
      sfw: false,
      _comment: 'Being moderated.',
    });
    const random = await request(`${h.url}/furry.hug`);
    expect(random.status).toBe(404);
    expect(random.body.code).toBe(1030);
    expect((await h.cli(['category', 'list'])).stdout).toContain(
      'furry.hug name="Furry > Hug" images=1 disabled comment="Being moderated."',
    );

    expect((await h.cli(['category', 'enable', 'furry.hug'])).code).toBe(0);
    expect((await request(`${h.url}/furry.hug`)).status).toBe(200);
    expect((await h.cli(['category', 'enable', 'furry.nope'])).code).toBe(1);
  });

  it('removes an image: row, index entry and file', async () => {
    const { bytes } = await placeholderImage(0);
    const id = md5(bytes);
    const result = await h.cli(['images', 'remove', id.toUpperCase()]);
    expect(result).toMatchObject({ code: 0, stdout: `Removed image ${id} from furry.hug.\n` });
    expect(existsSync(path.join(h.config.mediaDir, 'images', `${id}.png`))).toBe(false);
    expect(await h.redis.zscore(`${h.config.redis.prefix}{images}:bysize:furry.hug`, id)).toBeNull();
    expect(await h.redis.hexists(`${h.config.redis.prefix}{images}:records`, id)).toBe(0);
    expect((await request(`${h.url}/images/${id}.json`)).body.code).toBe(1040);
    expect((await request(`${h.url}/furry.hug`)).body.code).toBe(1030);
    expect((await h.cli(['images', 'remove', id])).code).toBe(1);
  });
});

describe('bin/admin images seed-demo', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-seed');
  });
  afterAll(async () => h.close());

  it('seeds the demo categories once, through the import path, so every endpoint works', async () => {
    const result = await h.cli(['images', 'seed-demo']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Seeded ${DEMO_CATEGORIES.length} demo categories with 60 placeholder images.`);

    const listed = await request(`${h.url}/categories`);
    expect(listed.body.data.disabled).toEqual([
      { name: 'Animals > Fox', db: 'animals.fox', sfw: true, _comment: NEVER_HAD_CONTENT_COMMENT },
    ]);
    expect(listed.body.data.enabled).toHaveLength(20);
    expect(listed.body.data.enabled).toContainEqual({ name: 'Furry > Yiff > Gay', db: 'furry.yiff.gay', sfw: false });
    expect(listed.body.data.enabled).toContainEqual({ name: 'Animals > Birb', db: 'animals.birb', sfw: true });

    const random = await request(`${h.url}/furry/yiff/gay?amount=3`);
    expect(random.status).toBe(200);
    expect(new Set(random.body.images.map((i: { id: string }) => i.id)).size).toBe(3);
    expect(random.body.images[0].artists).toEqual([DEMO_ARTIST]);
    const info = await request(`${h.url}/categories/furry.hug`);
    expect(Object.keys(info.body.data.files.list.types).sort()).toEqual(['image/gif', 'image/jpeg', 'image/png']);

    // Every demo GIF is animated: type=animated finds one in each category of three, type=still the others.
    for (const category of ['furry/hug', 'animals.birb', 'furry.yiff.gay']) {
      const animated = await request(`${h.url}/${category}?type=animated&amount=5`);
      expect(animated.status, category).toBe(200);
      expect(
        animated.body.images.map((i: { ext: string }) => i.ext),
        category,
      ).toEqual(['gif']);
      const [gif] = animated.body.images as Array<{ id: string; ext: string }>;
      const file = new ImageFileRepository(h.ctx.mediaDir).pathOf(gif!.id, gif!.ext);
      expect((await sharp(file, { animated: true }).metadata()).pages, category).toBeGreaterThan(1);
      const still = await request(`${h.url}/${category}?type=still&amount=5`);
      expect(still.body.images.map((i: { ext: string }) => i.ext).sort(), category).toEqual(['jpg', 'png']);
    }

    const again = await h.cli(['images', 'seed-demo']);
    expect(again).toMatchObject({ code: 0, stdout: 'The images database already has categories; nothing seeded.\n' });
  }, 120_000);
});
