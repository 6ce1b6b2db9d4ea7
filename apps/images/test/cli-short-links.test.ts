import { freePort, request } from '@pawlink/test-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandInShortener, type StandInShortener } from './fakes/stand-in-shortener.js';
import { startHarness, type Harness } from './support.js';

const KEY = 'stand-in-cli-key';

describe('bin/admin images shortlinks', () => {
  let h: Harness;
  let stand: StandInShortener;
  let seed = 200;
  const missing = async (): Promise<number> =>
    Number(
      (await h.images.query<Array<{ n: string }>>('SELECT COUNT(*) AS n FROM images WHERE short_url IS NULL'))[0]!.n,
    );
  const shortUrlOf = async (id: string): Promise<string | null> =>
    (await request(`${h.url}/images/${id}.json`)).body.data.shortURL;

  beforeAll(async () => {
    stand = await startStandInShortener({ key: KEY });
    h = await startHarness('img-cli-links', {
      SHORTENER_URL: stand.url,
      SHORTENER_KEY: KEY,
      IMAGES_SHORT_LINKS_TIMEOUT_MS: '5000',
    });
    await h.addCategory('furry.hug', 'Furry > Hug');
  });
  beforeEach(() => {
    stand.mode = 'ok';
  });
  afterAll(async () => {
    await h?.close();
    await stand?.close();
  });

  it('creates every missing link at once, prints progress and counts, and stores them in MySQL and the cached records', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await h.addImage('furry.hug', seed++)).id);
    for (const id of ids) expect(await shortUrlOf(id)).toBeNull(); // cached without a link
    const result = await h.cli(['images', 'shortlinks']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('short links: 3/3\n');
    expect(result.stdout).toContain('Created 3 short link(s); 3 image(s) had none; 0 still have none.\n');
    expect(await missing()).toBe(0);
    for (const id of ids) {
      const { url } = (await request(`${h.url}/images/${id}.json`)).body.data;
      expect(await shortUrlOf(id)).toBe(stand.shortUrlOf(url));
    }
    const again = await h.cli(['images', 'shortlinks']);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain('Created 0 short link(s); 0 image(s) had none; 0 still have none.\n');
  });

  it('exits 1 with a clear message when the shortener is unreachable, and leaves the images without a link', async () => {
    const { id } = await h.addImage('furry.hug', seed++);
    const url = `http://127.0.0.1:${await freePort()}`; // nothing listens there
    const config = {
      ...h.config,
      images: { ...h.config.images, shortLinks: { ...h.config.images.shortLinks, apiUrl: url } },
    };
    const result = await h.cli(['images', 'shortlinks'], { config });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: Short links could not be made: the shortener is unreachable \(ECONNREFUSED\) \(shortener at http:\/\/127\.0\.0\.1:\d+\)\. Created 0; 1 image\(s\) still have none\.\n$/,
    );
    expect(await shortUrlOf(id)).toBeNull();

    stand.mode = 'down';
    const dropped = await h.cli(['images', 'shortlinks']);
    expect(dropped.code).toBe(1);
    expect(dropped.stderr).toContain('the shortener is unreachable');
    expect(await missing()).toBe(1);
  });

  it('exits 1 naming the answer when the shortener refuses the key or the image URLs, or answers something that is no record', async () => {
    await h.addImage('furry.hug', seed++);
    stand.mode = 'forbidden';
    const forbidden = await h.cli(['images', 'shortlinks']);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain(
      'the shortener answered 403 (code 1022: Your API key does not have access to this service.)',
    );
    stand.mode = 'refuse';
    const refused = await h.cli(['images', 'shortlinks']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'the shortener answered 422 (code 1073: The provided url is invalid: private, loopback and reserved addresses are not allowed.)',
    );
    stand.mode = 'invalid';
    const invalid = await h.cli(['images', 'shortlinks']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('the shortener gave an answer that is no short link record (200)');
    expect(await missing()).toBeGreaterThan(0);
  });

  it('waits out a 429 and then finishes', async () => {
    const before = await missing();
    expect(before).toBeGreaterThan(0);
    stand.mode = 'busy';
    stand.retryAfter = '0';
    stand.busyAnswers = 2;
    const result = await h.cli(['images', 'shortlinks']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The shortener asks to wait 0 s (429); waiting.\n');
    expect(result.stdout).toContain(
      `Created ${before} short link(s); ${before} image(s) had none; 0 still have none.\n`,
    );
    expect(await missing()).toBe(0);
  });

  it('exits 1 when no SHORTENER_KEY is set', async () => {
    const config = {
      ...h.config,
      images: { ...h.config.images, shortLinks: { ...h.config.images.shortLinks, key: null } },
    };
    const result = await h.cli(['images', 'shortlinks'], { config });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SHORTENER_KEY is not set');
  });
});
