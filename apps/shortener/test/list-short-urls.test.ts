import { createTestKey } from '@pawlink/auth/testing';
import type { ListShortUrlsResponse } from '@pawlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-links');
});
afterAll(async () => {
  await h.close();
});

type Page = ListShortUrlsResponse['data'];

/** GET /links with `key` and the given query. */
const list = (key: string, query = '') =>
  request<{ success: boolean; code?: number; error?: string; data: Page }>(`${h.url}/links${query}`, {
    headers: { authorization: key },
  });

/** A fresh key with the shortener flag and no limits: entries it creates are its own. */
const freshKey = (): Promise<string> => createTestKey(h.apiKeys, ['shortener']);

/** Creates `n` entries with `key`, one after the other; their codes, oldest first. */
async function createMany(
  key: string,
  n: number,
  body: (i: number) => Record<string, unknown> = () => ({}),
): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await create({ url: h.url, key }, { url: uniqueUrl('own'), ...body(i) });
    expect(res.status).toBe(201);
    codes.push(res.body.data.code);
  }
  return codes;
}

/** Every page from the first, following `next`. */
async function allPages(key: string, query: string): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const res = await list(key, `${query}${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(res.status).toBe(200);
    pages.push(res.body.data.links.map((link) => link.code));
    cursor = res.body.data.next;
  } while (cursor !== null);
  return pages;
}

describe('GET /links: who may ask', () => {
  it('needs a key (1013), a valid one (1010), with the shortener flag (1022)', async () => {
    const none = await request(`${h.url}/links`);
    expect([none.status, none.body.code]).toEqual([401, 1013]);
    const invalid = await list('not-a-key');
    expect([invalid.status, invalid.body.code]).toEqual([401, 1010]);
    const thumbsOnly = await createTestKey(h.apiKeys, ['thumbs']);
    const noFlag = await list(thumbsOnly);
    expect([noFlag.status, noFlag.body.code]).toEqual([403, 1022]);
  });

  it('answers other methods with 405 and an Allow header', async () => {
    const res = await request(`${h.url}/links`, { method: 'DELETE', headers: { authorization: h.key } });
    expect([res.status, res.body.code]).toEqual([405, 1025]);
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('makes `links` a reserved code', async () => {
    for (const code of ['links', 'Links']) {
      const res = await create(h, { url: uniqueUrl(), code });
      expect([res.status, res.body.code]).toEqual([409, 1072]);
    }
  });
});

describe('GET /links: validation', () => {
  const bad = [
    'limit=0',
    'limit=101',
    'limit=',
    'limit=ten',
    'limit=-1',
    'limit=2.5',
    'limit=1&limit=2',
    'cursor=',
    'cursor=%%%',
    'cursor=bm90LWEtY3Vyc29y', // base64url of "not-a-cursor"
    'cursor=MTcwMDAwMDAwMDAwMC4w', // "1700000000000.0": pos 0 does not exist
    'cursor=MDE3MDAwMDAwMDAwMC4x', // "01700000000000.1": not the canonical form
    'cursor=MTcwMDAwMDAwMDAwMC4x&cursor=MTcwMDAwMDAwMDAwMC4x',
    'q=',
    `q=${'a'.repeat(201)}`,
    'q=a&q=b',
  ];
  for (const query of bad) {
    it(`refuses ?${query.slice(0, 40)} with 400 1057`, async () => {
      const res = await list(h.key, `?${query}`);
      expect([res.status, res.body.code]).toEqual([400, 1057]);
      expect(res.body.error).toMatch(/limit|cursor|q/);
    });
  }
});

describe("GET /links: the key's own entries", () => {
  it('lists only what the presenting key created, newest first, records with visits and expired ones included', async () => {
    const mine = await freshKey();
    const other = await freshKey();
    const [first, second] = await createMany(mine, 2, (i) => ({ credit: `mine ${i}` }));
    const limited = await create({ url: h.url, key: mine }, { url: uniqueUrl('limited'), maxVisits: 1 });
    await createMany(other, 2);
    // The one allowed visit, then the link is expired.
    expect((await request(`${h.url}/${limited.body.data.code}`, { headers: BROWSER })).status).toBe(302);
    expect((await request(`${h.url}/${limited.body.data.code}`, { headers: BROWSER })).status).toBe(410);

    const res = await list(mine);
    expect(res.status).toBe(200);
    expect(res.body.data.next).toBeNull();
    expect(res.body.data.links.map((link) => link.code)).toEqual([limited.body.data.code, second, first]);
    const [expired, newest] = res.body.data.links;
    expect(expired).toMatchObject({ maxVisits: 1, fullURL: `https://pawl.ink/${limited.body.data.code}` });
    // Its one visit is listed once counted (visits reach Redis within the flush interval).
    await expect
      .poll(async () => (await list(mine)).body.data.links[0]!.visits, { timeout: 10_000, interval: 100 })
      .toBe(1);
    expect(newest).toMatchObject({ code: second, credit: 'mine 1', visits: 0, modifiedAt: null });
    expect(Object.keys(newest!).sort()).toEqual([
      'code',
      'createdAt',
      'credit',
      'expiresAt',
      'fullURL',
      'maxVisits',
      'modifiedAt',
      'pos',
      'protected',
      'rules',
      'tags',
      'url',
      'visits',
    ]);
  });

  it('shows the visits of each entry as GET /:code.json does', async () => {
    const key = await freshKey();
    const [code] = await createMany(key, 1);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
    // The visit is seen once this instance has flushed it to Redis (within its flush interval):
    // both reads are made after that, so they read the same counts.
    const visitsOf = async (): Promise<number> =>
      (await request<{ data: { visits: number } }>(`${h.url}/${code}.json`, { headers: { authorization: key } })).body
        .data.visits;
    await expect.poll(visitsOf, { timeout: 10_000, interval: 100 }).toBe(1);
    const listed = await list(key);
    expect(listed.body.data.links[0]!.visits).toBe(await visitsOf());
  });

  it('keeps an entry listed under its creator after the key is disabled, and lists nothing for a key that created nothing', async () => {
    const key = await freshKey();
    const [code] = await createMany(key, 1);
    const other = await freshKey();
    expect((await list(other)).body.data).toEqual({ links: [], next: null });
    const record = await h.apiKeys.findByKey(key);
    await h.apiKeys.update(record!.id, { disabled: true, disabledReason: 'test' });
    // The entry itself is untouched: it still redirects, and its row keeps its owner.
    expect((await request(`${h.url}/${code}`)).status).toBe(302);
    const [row] = await h.dataSource.query('SELECT owner_key_id AS owner FROM short_urls WHERE code = ?', [code]);
    expect(Number(row.owner)).toBe(record!.id);
  });

  it('does not list a fixed entry another key made first (the 200 of a non-editable create)', async () => {
    const first = await freshKey();
    const second = await freshKey();
    const url = uniqueUrl('shared');
    const made = await create({ url: h.url, key: first }, { url }, { editable: false });
    const shared = await create({ url: h.url, key: second }, { url }, { editable: false });
    expect([made.status, shared.status]).toEqual([201, 200]);
    expect((await list(first)).body.data.links.map((l) => l.code)).toEqual([made.body.data.code]);
    expect((await list(second)).body.data.links).toEqual([]);
  });
});

describe('GET /links: pages', () => {
  it('pages by `limit` and `next`, and the default page is 25', async () => {
    const key = await freshKey();
    const codes = await createMany(key, 27);
    const first = await list(key);
    expect(first.body.data.links).toHaveLength(25);
    expect(first.body.data.next).toEqual(expect.any(String));
    const rest = await list(key, `?cursor=${first.body.data.next}`);
    expect(rest.body.data.links.map((l) => l.code)).toEqual([codes[1], codes[0]]);
    expect(rest.body.data.next).toBeNull();
    expect((await allPages(key, '?limit=10')).map((page) => page.length)).toEqual([10, 10, 7]);
    expect((await allPages(key, '?limit=100')).flat()).toEqual([...codes].reverse());
  });

  it('stays stable while the key creates more: the next page has no duplicates and misses nothing', async () => {
    const key = await freshKey();
    const before = await createMany(key, 7);
    const first = await list(key, '?limit=3');
    expect(first.body.data.links.map((l) => l.code)).toEqual([before[6], before[5], before[4]]);
    // Four creates land between the pages, concurrently.
    const during = await Promise.all(
      Array.from({ length: 4 }, () =>
        create({ url: h.url, key }, { url: uniqueUrl('during') }).then((r) => r.body.data.code),
      ),
    );
    const second = await list(key, `?limit=3&cursor=${first.body.data.next}`);
    expect(second.body.data.links.map((l) => l.code)).toEqual([before[3], before[2], before[1]]);
    const third = await list(key, `?limit=3&cursor=${second.body.data.next}`);
    expect(third.body.data.links.map((l) => l.code)).toEqual([before[0]]);
    expect(third.body.data.next).toBeNull();
    // A new walk from the top sees everything once.
    const all = (await allPages(key, '?limit=4')).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...before, ...during].sort());
  });

  it('pages through entries created in the same millisecond by pos', async () => {
    const key = await freshKey();
    const codes = await createMany(key, 5);
    // As if they had all been created at once: only pos tells them apart.
    await h.dataSource.query(
      `UPDATE short_urls SET created_at = '2030-01-01 00:00:00.000' WHERE code IN (${codes.map(() => '?').join(',')})`,
      codes,
    );
    expect((await allPages(key, '?limit=2')).flat()).toEqual([...codes].reverse());
  });
});

describe('GET /links: q', () => {
  it('matches a substring of code, url or credit, ignoring case, with LIKE wildcards taken literally', async () => {
    const key = await freshKey();
    const byCode = await create(
      { url: h.url, key },
      { url: uniqueUrl('plain'), code: `QrCase-${Date.now().toString(36)}` },
    );
    const byUrl = await create(
      { url: h.url, key },
      { url: `https://example.com/Under_Score/${Date.now().toString(36)}` },
    );
    await create({ url: h.url, key }, { url: `https://example.com/UnderXScore/${Date.now().toString(36)}` });
    const byCredit = await create({ url: h.url, key }, { url: uniqueUrl('plain'), credit: 'Ötter 100%' });
    const other = await create({ url: h.url, key }, { url: uniqueUrl('plain'), credit: 'otter 1000' });
    const codesFor = async (q: string) =>
      (await list(key, `?q=${encodeURIComponent(q)}`)).body.data.links.map((l) => l.code);

    expect(await codesFor('qrcase')).toEqual([byCode.body.data.code]);
    expect(await codesFor('UNDER_SCORE')).toEqual([byUrl.body.data.code]);
    // `_` and `%` are not wildcards: "r_s" does not match "rXs", "100%" does not match "1000".
    expect(await codesFor('r_s')).toEqual([byUrl.body.data.code]);
    expect(await codesFor('100%')).toEqual([byCredit.body.data.code]);
    expect(await codesFor('ötter')).toEqual([byCredit.body.data.code]);
    // Case, not accents: "otter" finds the plain one only.
    expect(await codesFor('OTTER')).toEqual([other.body.data.code]);
    expect(await codesFor('!')).toEqual([]);
    expect(await codesFor('nothing-like-this')).toEqual([]);
  });

  it('pages a filtered list with the same cursor rules', async () => {
    const key = await freshKey();
    const wanted = await createMany(key, 5, (i) => ({ credit: i % 2 === 0 ? 'Wanted' : 'other' }));
    const pages = await allPages(key, '?limit=1&q=WANT');
    expect(pages.flat()).toEqual([wanted[4], wanted[2], wanted[0]]);
  });
});
