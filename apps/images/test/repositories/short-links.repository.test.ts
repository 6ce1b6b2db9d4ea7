import http from 'node:http';
import { freePort } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryRepository } from '../../src/repositories/category.repository.js';
import { ImageShortUrlRepository } from '../../src/repositories/image-short-url.repository.js';
import { ImageRepository } from '../../src/repositories/image.repository.js';
import { RecordCacheRepository } from '../../src/repositories/record-cache.repository.js';
import { ShortLinkLockRepository } from '../../src/repositories/short-link-lock.repository.js';
import { retryAfterMs, ShortLinkRepository } from '../../src/repositories/short-link.repository.js';
import { startStandInShortener, type StandInShortener } from '../fakes/stand-in-shortener.js';
import { imageRow, openStores, type Stores } from './stores.js';

describe('short-link repositories', () => {
  let stores: Stores;
  let stand: StandInShortener;
  beforeAll(async () => {
    stores = await openStores('img-repo-links');
    stand = await startStandInShortener({ key: 'k' });
    await new CategoryRepository(stores.images).create('furry.hug', 'Furry > Hug');
  });
  afterAll(async () => {
    await stand?.close();
    await stores?.close();
  });

  describe('ImageShortUrlRepository (MySQL)', () => {
    it('pages the images without a link by id, and stores a link only where there is none', async () => {
      const images = new ImageRepository(stores.images);
      for (let n = 1; n <= 5; n++)
        await images.insert(
          imageRow('furry.hug', n, { ext: n === 2 ? 'gif' : 'png', shortUrl: n === 3 ? 'https://given.test/3' : null }),
        );
      const repo = new ImageShortUrlRepository(stores.images);
      const id = (n: number) => imageRow('furry.hug', n).id;
      expect(await repo.countMissing()).toBe(4);
      expect(await repo.missing('', 2)).toEqual([
        { id: id(1), ext: 'png' },
        { id: id(2), ext: 'gif' },
      ]);
      expect(await repo.missing(id(2), 10)).toEqual([
        { id: id(4), ext: 'png' },
        { id: id(5), ext: 'png' },
      ]);
      const stored = await repo.fill(
        new Map([
          [id(1), 'https://s.test/1'],
          [id(3), 'https://s.test/3'],
          ['f'.repeat(32), 'https://s.test/gone'],
        ]),
      );
      expect(stored).toEqual([id(1)]);
      expect((await images.findById(id(1)))!.shortUrl).toBe('https://s.test/1');
      expect((await images.findById(id(3)))!.shortUrl).toBe('https://given.test/3');
      expect(await repo.countMissing()).toBe(3);
    });

    it('finds the missing ones through the index, not by scanning the table', async () => {
      // Enough linked rows that a scan would cost: the optimizer then shows its real choice.
      const values = Array.from({ length: 3000 }, (_, i) => [
        (0x100000 + i).toString(16).padStart(32, '0'),
        'furry.hug',
        'png',
        'image/png',
        1,
        1,
        1,
        '[]',
        '[]',
        `https://s.test/${i}`,
        new Date(),
      ]);
      await stores.images.query(
        'INSERT INTO images (id, category, ext, mime_type, size, width, height, artists, sources, short_url, created_at) VALUES ?',
        [values],
      );
      await stores.images.query('ANALYZE TABLE images');
      const plan = await stores.images.query<Array<{ key: string | null }>>(
        "EXPLAIN SELECT id, ext FROM images WHERE short_url IS NULL AND id > '' ORDER BY id LIMIT 100",
      );
      expect(plan[0]!.key).toBe('idx_images_short_url_missing');
    });
  });

  describe('RecordCacheRepository.setShortUrls (Redis)', () => {
    it('puts the link into cached entries and caches nothing that was not cached', async () => {
      const records = new RecordCacheRepository(stores.redis, stores.config.redis.prefix);
      const cached = imageRow('furry.hug', 11);
      await records.setMany([cached]);
      const notCached = imageRow('furry.hug', 12);
      await records.setShortUrls(
        new Map([
          [cached.id, 'https://s.test/11'],
          [notCached.id, 'https://s.test/12'],
        ]),
      );
      await records.setShortUrls(new Map());
      const found = await records.getMany([cached.id, notCached.id]);
      expect([...found.values()]).toEqual([{ ...cached, shortUrl: 'https://s.test/11' }]);
    });
  });

  describe('ShortLinkLockRepository (Redis)', () => {
    it('is held by one instance at a time, kept by its holder, and free again once released', async () => {
      const a = new ShortLinkLockRepository(stores.redis, stores.config.redis.prefix, 5000);
      const b = new ShortLinkLockRepository(stores.redis, stores.config.redis.prefix, 5000);
      expect(await a.acquire()).toBe(true);
      expect(await b.acquire()).toBe(false);
      expect(await a.acquire()).toBe(true);
      await b.release(); // not b's to release
      expect(await b.acquire()).toBe(false);
      await a.release();
      expect(await b.acquire()).toBe(true);
      await b.release();
    });

    it('expires when its holder dies', async () => {
      const a = new ShortLinkLockRepository(stores.redis, stores.config.redis.prefix, 100);
      const b = new ShortLinkLockRepository(stores.redis, stores.config.redis.prefix, 100);
      expect(await a.acquire()).toBe(true);
      const key = `${stores.config.redis.prefix}{images}:short-links:lock`;
      expect(await stores.redis.pttl(key)).toBeGreaterThan(0);
      await stores.redis.pexpire(key, 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await b.acquire()).toBe(true);
      await b.release();
    });
  });

  describe('ShortLinkRepository (the shortener over HTTP)', () => {
    const client = (apiUrl = stand.url, timeoutMs = 5000) => new ShortLinkRepository({ apiUrl, key: 'k', timeoutMs });

    it('creates a non-editable link with the key, and gets the same one again', async () => {
      stand.mode = 'ok';
      const first = await client().create('https://media.test/images/a.png');
      expect(first).toEqual({ kind: 'created', shortUrl: stand.shortUrlOf('https://media.test/images/a.png') });
      expect(await client().create('https://media.test/images/a.png')).toEqual(first);
      expect(stand.requests.at(-1)).toMatchObject({
        url: 'https://media.test/images/a.png',
        editable: 'false',
        authorization: 'k',
      });
    });

    it('tells an unreachable, dropping or silent shortener apart from one that answers', async () => {
      expect(await client(`http://127.0.0.1:${await freePort()}`).create('https://m.test/a.png')).toEqual({
        kind: 'failed',
        reason: 'the shortener is unreachable (ECONNREFUSED)',
      });
      stand.mode = 'down';
      expect(await client().create('https://m.test/a.png')).toMatchObject({
        kind: 'failed',
        reason: expect.stringMatching(/^the shortener is unreachable/),
      });
      stand.mode = 'hang';
      expect(await client(stand.url, 200).create('https://m.test/a.png')).toEqual({
        kind: 'failed',
        reason: 'the shortener is unreachable (no answer within 200 ms)',
      });
    });

    it('passes on a 429 with its Retry-After', async () => {
      stand.mode = 'busy';
      stand.busyAnswers = Number.POSITIVE_INFINITY;
      stand.retryAfter = '7';
      expect(await client().create('https://m.test/a.png')).toEqual({ kind: 'rate-limited', retryAfterMs: 7000 });
    });

    it('reports refusals with their status and code, and answers that are no record', async () => {
      stand.mode = 'ok';
      const wrongKey = new ShortLinkRepository({ apiUrl: stand.url, key: 'nope', timeoutMs: 5000 });
      expect(await wrongKey.create('https://m.test/a.png')).toEqual({
        kind: 'failed',
        reason: 'the shortener answered 401 (code 1010: Invalid API key.)',
      });
      stand.mode = 'invalid';
      expect(await client().create('https://m.test/a.png')).toEqual({
        kind: 'failed',
        reason: 'the shortener gave an answer that is no short link record (200)',
      });
    });

    it('takes an HTML error page or a non-URL fullURL as no record', async () => {
      const answers: Array<[number, string]> = [
        [502, '<html>Bad Gateway</html>'],
        [201, '{"success":true,"data":{"fullURL":"javascript:alert(1)"}}'],
        [200, 'not json'],
      ];
      const server = http.createServer((req, res) => {
        const [status, body] = answers.shift()!;
        req.resume();
        res.writeHead(status).end(body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        expect(await client(url).create('https://m.test/a.png')).toEqual({
          kind: 'failed',
          reason: 'the shortener answered 502',
        });
        expect(await client(url).create('https://m.test/a.png')).toEqual({
          kind: 'failed',
          reason: 'the shortener gave an answer that is no short link record (201)',
        });
        expect(await client(url).create('https://m.test/a.png')).toEqual({
          kind: 'failed',
          reason: 'the shortener gave an answer that is no short link record (200)',
        });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('reads Retry-After as seconds or a date, within bounds', () => {
      expect(retryAfterMs('3')).toBe(3000);
      expect(retryAfterMs('0.5')).toBe(500);
      expect(retryAfterMs(null)).toBe(1000);
      expect(retryAfterMs('soon')).toBe(1000);
      expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
      expect(retryAfterMs(new Date(0).toUTCString(), 4000)).toBe(0);
      expect(retryAfterMs('999999')).toBe(3_600_000);
    });
  });
});
