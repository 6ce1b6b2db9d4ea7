import { createHash } from 'node:crypto';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

const md5 = (bytes: ArrayBuffer): string => createHash('md5').update(Buffer.from(bytes)).digest('hex');

describe('GET /:category with Accept: image/*', () => {
  let h: Harness;
  let image: { id: string; size: number; ext: string };
  beforeAll(async () => {
    h = await startHarness('img-bytes');
    await h.addCategory('furry.hug');
    await h.addCategory('furry.boop');
    image = await h.addImage('furry.hug', 7, {
      artists: ['Zoë', '狐 Fox'],
      sources: ['https://example.com/a', 'https://example.com/b'],
    });
    await h.addImage('furry.boop', 8);
    await h.addImage('furry.boop', 9);
  });
  afterAll(async () => h.close());

  it('streams the bytes of a random image with its MIME type and X-Yiffy headers', async () => {
    const res = await fetch(`${h.url}/furry/hug`, { headers: { accept: 'image/*' } });
    expect(res.status).toBe(200);
    const bytes = await res.arrayBuffer();
    expect(md5(bytes)).toBe(image.id);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Object.fromEntries([...res.headers.entries()].filter(([name]) => name.startsWith('x-yiffy')))).toEqual({
      'x-yiffy-artist': 'Zo%C3%AB, %E7%8B%90 Fox',
      'x-yiffy-source': 'https://example.com/a, https://example.com/b',
      'x-yiffy-image-width': '640',
      'x-yiffy-image-height': '360',
      'x-yiffy-image-url': `http://media.test/images/${image.id}.jpg`,
      'x-yiffy-image-type': 'image/jpeg',
      'x-yiffy-image-name': `${image.id}.jpg`,
      'x-yiffy-image-size': String(image.size),
      'x-yiffy-image-extension': 'jpg',
      'x-yiffy-short-url': '',
      'x-yiffy-report-url': '',
    });
  });

  it('bounds the X-Yiffy headers of an image stored with 50 long artists and 20 long sources; the JSON form keeps the lists', async () => {
    await h.addCategory('furry.credits');
    const stored = await h.addImage('furry.credits', 12);
    // Stored before the import had limits: the row holds whatever it was given.
    const artists = Array.from({ length: 50 }, (_, i) => `Artist ${i} ${'狐'.repeat(60)} ${'x'.repeat(100)}`);
    const sources = Array.from({ length: 20 }, (_, i) => `https://example.com/${i}/${'a'.repeat(1500)}`);
    await h.images.query('UPDATE images SET artists = ?, sources = ? WHERE id = ?', [
      JSON.stringify(artists),
      JSON.stringify(sources),
      stored.id,
    ]);
    await h.redis.hdel(`${h.config.redis.prefix}{images}:records`, stored.id);

    // Node's fetch reads the answer (51 KB of headers made it fail with UND_ERR_HEADERS_OVERFLOW).
    const res = await fetch(`${h.url}/furry.credits`, { headers: { accept: 'image/*' } });
    expect(res.status).toBe(200);
    expect(md5(await res.arrayBuffer())).toBe(stored.id);
    const yiffy = [...res.headers.entries()].filter(([name]) => name.startsWith('x-yiffy'));
    expect(yiffy).toHaveLength(11);
    for (const [name, value] of yiffy) expect(value.length, name).toBeLessThanOrEqual(1024);
    expect(yiffy.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0)).toBeLessThanOrEqual(2048);
    // The whole header block fits a proxy's default 4 KiB buffer.
    expect(
      [...res.headers.entries()].reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0),
    ).toBeLessThan(4096);
    const artistHeader = res.headers.get('x-yiffy-artist')!;
    expect(artistHeader).toMatch(/^Artist 0 %E7%8B%90/);
    const [, more] = /, \+(\d+) more$/.exec(artistHeader)!;
    expect(artistHeader.split(', ').length - 1 + Number(more)).toBe(50);
    expect(res.headers.get('x-yiffy-source')).toBe('+20 more');

    const info = await request(`${h.url}/images/${stored.id}.json`);
    expect(info.body.data.artists).toEqual(artists);
    expect(info.body.data.sources).toEqual(sources);
  });

  it('honours sizeLimit and answers the JSON errors in image mode too', async () => {
    const ok = await fetch(`${h.url}/furry.boop?sizeLimit=10MB`, { headers: { accept: 'image/png' } });
    expect(ok.status).toBe(200);
    const bytes = await ok.arrayBuffer();
    expect(md5(bytes)).toBe(ok.headers.get('x-yiffy-image-name')!.split('.')[0]);
    const none = await request(`${h.url}/furry.boop?sizeLimit=1`, { headers: { accept: 'image/*' } });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe(1041);
    const bad = await request(`${h.url}/furry.boop?sizeLimit=huge`, { headers: { accept: 'image/*' } });
    expect(bad.body.code).toBe(1057);
    const unknown = await request(`${h.url}/furry.none`, { headers: { accept: 'image/*' } });
    expect(unknown.body.code).toBe(1030);
  });

  it('answers a missing media file with code 0 and no image headers, and keeps serving', async () => {
    await h.addCategory('furry.lonely');
    const lonely = await h.addImage('furry.lonely', 11);
    const file = path.join(h.config.mediaDir, 'images', `${lonely.id}.${lonely.ext}`);
    await rename(file, `${file}.away`);
    try {
      const res = await request(`${h.url}/furry.lonely`, { headers: { accept: 'image/*' } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        success: false,
        error: 'There was an internal error while attempting to perform that action.',
        code: 0,
      });
      expect(res.headers.get('content-type')).toContain('application/json');
      expect([...res.headers.keys()].filter((name) => name.startsWith('x-yiffy'))).toEqual([]);
    } finally {
      await rename(`${file}.away`, file);
    }
    const back = await fetch(`${h.url}/furry.lonely`, { headers: { accept: 'image/*' } });
    expect(back.status).toBe(200);
    expect(md5(await back.arrayBuffer())).toBe(lonely.id);
  });

  it.each([
    ['range', 'bytes=0-3'],
    ['range', 'bytes=999999999-'],
    ['range', 'bytes=garbage'],
    ['if-match', '"x"'],
    ['if-match', '*'],
    ['if-none-match', '*'],
    ['if-unmodified-since', 'Mon, 01 Jan 1990 00:00:00 GMT'],
    ['if-modified-since', 'Mon, 01 Jan 2090 00:00:00 GMT'],
  ])('ignores %s: %j (a random pick is always sent whole)', async (name, value) => {
    const res = await fetch(`${h.url}/furry/hug`, { headers: { accept: 'image/*', [name]: value } });
    expect(res.status).toBe(200);
    expect(md5(await res.arrayBuffer())).toBe(image.id);
    expect(res.headers.get('accept-ranges')).toBeNull();
    expect(res.headers.get('etag')).toBeNull();
  });

  it.each([
    ['*/*'],
    ['application/json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
  ])('stays JSON for Accept %j', async (accept) => {
    const res = await request(`${h.url}/furry.hug`, { headers: { accept } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.images[0].id).toBe(image.id);
  });
});
