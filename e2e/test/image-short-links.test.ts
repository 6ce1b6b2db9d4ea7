import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  admin,
  createKey,
  createTestContext,
  request,
  startNginx,
  startService,
  type ServiceProcess,
  type StartedNginx,
  type TestContext,
} from '@pawlink/test-kit';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 15 item 4 through the real processes: an image imported with bin/admin gets a short link
 * on the real shortener within seconds, made by the images service's background filler with its
 * service key, and the link redirects to the image file nginx serves. While the shortener is
 * stopped, image requests still answer (shortURL null) and `bin/admin images shortlinks` exits 1;
 * once it is back, the backfill command links what is left.
 */

let ctx: TestContext;
let nginx: StartedNginx;
let shortener: ServiceProcess | undefined;
let images: ServiceProcess | undefined;
let env: Record<string, string>;
let inbox: string;
let seed = 0;

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

async function startShortener(): Promise<ServiceProcess> {
  return startService('shortener', { ...env, SHORTENER_PRIVATE_TARGET_PREFIXES: env.IMAGES_MEDIA_URL! });
}

/** Imports a new generated PNG with bin/admin; returns its id and bytes. */
async function importImage(): Promise<{ id: string; bytes: Buffer }> {
  seed++;
  const bytes = await sharp({
    create: { width: 40 + seed, height: 30, channels: 3, background: { r: 10 * seed, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  const file = path.join(inbox, `image-${seed}.png`);
  await writeFile(file, bytes);
  const result = await admin(env, ['images', 'import', '--category', 'animals.fox', '--artist', 'E2E', file]);
  expect(result.code, result.stderr).toBe(0);
  return { id: md5(bytes), bytes };
}

async function shortUrlWithin(id: string, seconds: number): Promise<string> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const info = await request(`${images!.url}/images/${id}.json`);
    expect(info.status).toBe(200);
    if (info.body.data.shortURL !== null) return info.body.data.shortURL as string;
    if (Date.now() > deadline)
      throw new Error(`no short link for ${id} after ${seconds} s:\n${images!.tail()}\n${shortener?.tail() ?? ''}`);
    await sleep(200);
  }
}

/** The link must redirect to the image's URL, where nginx serves exactly its bytes. */
async function expectRedirectToImage(shortUrl: string, id: string, bytes: Buffer): Promise<void> {
  const info = await request(`${images!.url}/images/${id}.json`);
  const redirect = await fetch(shortUrl, { redirect: 'manual' });
  expect(redirect.status).toBe(302);
  expect(redirect.headers.get('location')).toBe(info.body.data.url);
  const file = await fetch(info.body.data.url as string);
  expect(file.status).toBe(200);
  expect(md5(Buffer.from(await file.arrayBuffer()))).toBe(md5(bytes));
}

beforeAll(async () => {
  ctx = await createTestContext('e2elinks');
  const migrated = await admin(ctx.env, ['migrate']);
  expect(migrated.code, migrated.stderr).toBe(0);
  await mkdir(path.join(ctx.mediaDir, 'images'), { recursive: true });
  await mkdir(path.join(ctx.mediaDir, 'thumbs'), { recursive: true });
  inbox = path.join(ctx.mediaDir, 'inbox');
  await mkdir(inbox);
  nginx = await startNginx({ mediaDir: ctx.mediaDir });
  env = { ...ctx.env, LOG_LEVEL: 'warn', IMAGES_MEDIA_URL: `${nginx.baseUrl}/images` };
  // The service key, as npm start makes it.
  const key = await createKey(
    env,
    'shortener',
    ['--rate-limit-route', '0', '--rate-limit-global', '0'],
    'images-service',
  );
  shortener = await startShortener();
  env = { ...env, SHORTENER_URL: shortener.url, SHORTENER_KEY: key };
  const added = await admin(env, ['category', 'add', 'animals.fox', '--name', 'Animals > Fox']);
  expect(added.code, added.stderr).toBe(0);
  images = await startService('images', env);
}, 120_000);

afterAll(async () => {
  await images?.stop();
  await shortener?.stop();
  await nginx?.stop();
  await ctx?.cleanup();
});

describe('image short links on the real shortener', () => {
  it('gives an imported image a short link within seconds that redirects to the image', async () => {
    const { id, bytes } = await importImage();
    const shortUrl = await shortUrlWithin(id, 15);
    expect(shortUrl.startsWith(`${shortener!.url}/`)).toBe(true);
    await expectRedirectToImage(shortUrl, id, bytes);

    const random = await request(`${images!.url}/animals.fox`);
    expect(random.body.images[0]).toMatchObject({ id, shortURL: shortUrl });
    const one = await fetch(`${images!.url}/animals.fox`, { headers: { accept: 'image/*' } });
    expect(one.status).toBe(200);
    expect(one.headers.get('x-yiffy-short-url')).toBe(shortUrl);
    await one.arrayBuffer();
  });

  it('keeps serving images while the shortener is stopped; bin/admin images shortlinks fails clearly, then backfills once it is back', async () => {
    await shortener!.stop();
    shortener = undefined;
    const { id, bytes } = await importImage();
    for (let i = 0; i < 3; i++) {
      const info = await request(`${images!.url}/images/${id}.json`);
      expect(info.status).toBe(200);
      expect(info.body.data.shortURL).toBeNull();
      expect((await request(`${images!.url}/animals.fox?amount=2`)).status).toBe(200);
    }
    const failed = await admin(env, ['images', 'shortlinks']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      'error: Short links could not be made: the shortener is unreachable (ECONNREFUSED)',
    );
    expect(failed.stderr).toContain('1 image(s) still have none.');

    // The images service goes too, so only the command can make the link.
    await images!.stop();
    // On a new port: the old one may have been taken by another test's server in the meantime.
    shortener = await startShortener();
    env = { ...env, SHORTENER_URL: shortener.url };
    const backfilled = await admin(env, ['images', 'shortlinks']);
    expect(backfilled.code, backfilled.stderr).toBe(0);
    expect(backfilled.stdout).toContain('Created 1 short link(s); 1 image(s) had none; 0 still have none.');
    images = await startService('images', env);
    const shortUrl = await shortUrlWithin(id, 1);
    await expectRedirectToImage(shortUrl, id, bytes);
  });
});
