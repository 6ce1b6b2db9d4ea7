import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShortLinkLockRepository } from '../src/repositories/short-link-lock.repository.js';
import { ShortLinkFiller } from '../src/services/short-link-filler.service.js';
import { startStandInShortener, type StandInShortener } from './fakes/stand-in-shortener.js';
import { importJob, placeholderImage, startHarness, type Harness } from './support.js';

const KEY = 'stand-in-service-key';

/** Polls `read` until it gives something other than undefined (at most 15 s). */
async function eventually<T>(read: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('image short links made in the background', () => {
  let h: Harness;
  let stand: StandInShortener;
  let filler: ShortLinkFiller;
  const logs: Array<{ level: string; message: string; meta?: Record<string, unknown> }> = [];
  let seed = 100;

  beforeAll(async () => {
    stand = await startStandInShortener({ key: KEY });
    h = await startHarness('img-shortlinks', {
      SHORTENER_URL: stand.url,
      SHORTENER_KEY: KEY,
      IMAGES_SHORT_LINKS_TIMEOUT_MS: '1500',
    });
    await h.addCategory('furry.boop', 'Furry > Boop');
    const logger = {
      info: (message: string, meta?: Record<string, unknown>) => logs.push({ level: 'info', message, meta }),
      warn: (message: string, meta?: Record<string, unknown>) => logs.push({ level: 'warn', message, meta }),
    };
    filler = new ShortLinkFiller({
      links: h.container.shortLinks,
      lock: new ShortLinkLockRepository(h.redis, h.config.redis.prefix),
      logger,
      intervalMs: 50,
      maxBackoffMs: 200,
    });
    filler.start();
  });
  afterAll(async () => {
    await filler?.stop();
    await h?.close();
    await stand?.close();
  });

  const info = async (id: string) =>
    (await request(`${h.url}/images/${id}.json`)).body.data as { url: string; shortURL: string | null };
  const linkOf = (id: string) =>
    eventually(async () => (await info(id)).shortURL ?? undefined, `the short link of ${id}`);
  const requestsFor = (url: string) => stand.requests.filter((r) => r.url === url);

  it('gives a newly imported image its link: in the record, in random picks and in X-Yiffy-Short-URL', async () => {
    const { id } = await h.addImage('furry.boop', seed++);
    const { url } = await info(id);
    const link = await linkOf(id);
    expect(link).toBe(stand.shortUrlOf(url));
    expect(stand.links.get(link.split('/').pop()!)).toBe(url);
    expect(requestsFor(url)[0]).toMatchObject({ editable: 'false', authorization: KEY });

    const random = await request(`${h.url}/furry.boop`);
    expect(random.body.images[0]).toMatchObject({ id, shortURL: link });
    const bytes = await request(`${h.url}/furry.boop`, { headers: { accept: 'image/*' } });
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('x-yiffy-short-url')).toBe(link);
    const [row] = await h.images.query<Array<{ short_url: string }>>('SELECT short_url FROM images WHERE id = ?', [id]);
    expect(row!.short_url).toBe(link);
  });

  it('serves images with shortURL null while the shortener is down, logs the outage once, and links them when it is back', async () => {
    stand.mode = 'down';
    const warnsBefore = logs.filter((l) => l.level === 'warn').length;
    const { id } = await h.addImage('furry.boop', seed++);
    const { url } = await info(id);
    // Several failed attempts, each answered by a dropped connection.
    await eventually(() => (requestsFor(url).length >= 3 ? true : undefined), 'three attempts');
    for (let i = 0; i < 5; i++) {
      const res = await request(`${h.url}/images/${id}.json`);
      expect(res.status).toBe(200);
      expect(res.body.data.shortURL).toBeNull();
      const random = await request(`${h.url}/furry.boop?amount=2`);
      expect(random.status).toBe(200);
      const bytes = await request(`${h.url}/furry.boop`, { headers: { accept: 'image/*' } });
      expect(bytes.status).toBe(200);
    }
    const warns = logs.filter((l) => l.level === 'warn').slice(warnsBefore);
    expect(warns).toHaveLength(1);
    expect(warns[0]!.meta?.reason).toMatch(/the shortener is unreachable/);

    stand.mode = 'ok';
    expect(await linkOf(id)).toBe(stand.shortUrlOf(url));
    expect(logs.at(-1)).toMatchObject({ level: 'info', message: 'Image short links are being made again' });
  });

  it('answers image requests at once while the shortener never answers (the filler gives up after its timeout)', async () => {
    stand.mode = 'hang';
    const { id } = await h.addImage('furry.boop', seed++);
    const { url } = await info(id);
    await eventually(() => (requestsFor(url).length >= 2 ? true : undefined), 'two timed-out attempts');
    const res = await request(`${h.url}/images/${id}.json`);
    expect(res.status).toBe(200);
    expect(res.body.data.shortURL).toBeNull();
    expect(logs.filter((l) => l.level === 'warn').at(-1)!.meta?.reason).toMatch(/no answer within 1500 ms/);
    stand.mode = 'ok';
    expect(await linkOf(id)).toBe(stand.shortUrlOf(url));
  });

  it('waits out a 429 for its Retry-After before asking again', async () => {
    stand.mode = 'busy';
    stand.retryAfter = '1';
    stand.busyAnswers = 1;
    const { id } = await h.addImage('furry.boop', seed++);
    const { url } = await info(id);
    const link = await linkOf(id);
    expect(link).toBe(stand.shortUrlOf(url));
    const [limited, next] = requestsFor(url);
    expect(limited).toBeDefined();
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(950);
  });

  it('stores nothing from an answer that is no record, and links the image once the answers are right', async () => {
    stand.mode = 'invalid';
    const warnsBefore = logs.filter((l) => l.level === 'warn').length;
    const { id } = await h.addImage('furry.boop', seed++);
    const { url } = await info(id);
    await eventually(() => (requestsFor(url).length >= 2 ? true : undefined), 'two attempts');
    expect((await info(id)).shortURL).toBeNull();
    const warns = logs.filter((l) => l.level === 'warn').slice(warnsBefore);
    expect(warns).toHaveLength(1);
    expect(warns[0]!.meta?.reason).toMatch(/no short link record/);
    stand.mode = 'ok';
    expect(await linkOf(id)).toBe(stand.shortUrlOf(url));
  });

  it('leaves a link given at import (a sidecar shortURL) as it is', async () => {
    await filler.stop();
    const { bytes, ext } = await placeholderImage(seed++);
    const file = `${h.ctx.mediaDir}/given.${ext}`;
    await writeFile(file, bytes);
    const outcome = await h.container.imports.importFile(
      importJob('furry.boop', { shortUrl: 'https://given.example/abc' }),
      file,
    );
    expect(outcome.status).toBe('imported');
    const before = stand.requests.length;
    expect(await h.container.shortLinks.backfill({ sleep: () => Promise.resolve() })).toMatchObject({
      filled: 0,
      remaining: 0,
    });
    expect(stand.requests.length).toBe(before);
    expect((await info((outcome as { id: string }).id)).shortURL).toBe('https://given.example/abc');
    filler.start();
  });
});
