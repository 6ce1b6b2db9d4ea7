import { createTestKey } from '@pawlink/auth/testing';
import { BULK_CREATE_BODY_MAX_BYTES, URL_MAX_LENGTH } from '@pawlink/contracts';
import type { BulkCreateItemResult } from '@pawlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-bulk');
});
afterAll(async () => {
  await h.close();
});

interface BulkBody {
  success: boolean;
  code?: number;
  error?: string;
  info?: { remaining: number; limit: number; bucket: string; global: boolean };
  extra?: Record<string, unknown>;
  data: BulkCreateItemResult[];
}

/** POST /create/bulk with `key` (or no Authorization when null). */
const bulk = (key: string | null, body: unknown, query = '') =>
  request<BulkBody>(`${h.url}/create/bulk${query}`, jsonInit('POST', body, key === null ? {} : { authorization: key }));

/** The codes GET /links lists for `key`. */
const listed = async (key: string): Promise<string[]> =>
  (await request(`${h.url}/links?limit=100`, { headers: { authorization: key } })).body.data.links.map(
    (l: { code: string }) => l.code,
  );

const ok = (result: BulkCreateItemResult | undefined) => {
  if (!result?.success) throw new Error(`expected a success, got ${JSON.stringify(result)}`);
  return result;
};

describe('POST /create/bulk: who may ask', () => {
  it('needs a key (1013), a valid one (1010), with the shortener flag (1022)', async () => {
    const links = [{ url: uniqueUrl() }];
    const none = await bulk(null, { links });
    expect([none.status, none.body.code]).toEqual([401, 1013]);
    const invalid = await bulk('not-a-key', { links });
    expect([invalid.status, invalid.body.code]).toEqual([401, 1010]);
    const noFlag = await bulk(await createTestKey(h.apiKeys, ['thumbs']), { links });
    expect([noFlag.status, noFlag.body.code]).toEqual([403, 1022]);
  });

  it('answers other methods with 405', async () => {
    const res = await request(`${h.url}/create/bulk`, { headers: { authorization: h.key } });
    expect([res.status, res.body.code]).toEqual([405, 1025]);
    expect(res.headers.get('allow')).toContain('POST');
  });
});

describe('POST /create/bulk: the body', () => {
  const notAList: Array<[string, unknown]> = [
    ['no links', {}],
    ['links not an array', { links: { url: 'https://example.com/' } }],
    ['links null', { links: null }],
    ['links empty', { links: [] }],
    ['101 links', { links: Array.from({ length: 101 }, (_, i) => ({ url: `https://example.com/${i}` })) }],
    ['a bare array', [{ url: 'https://example.com/' }]],
  ];
  for (const [name, body] of notAList) {
    it(`refuses ${name} with 400 1084`, async () => {
      const res = await bulk(h.key, body);
      expect([res.status, res.body.code]).toEqual([400, 1084]);
    });
  }

  it('refuses a bad editable with 400 1057 and malformed JSON with 400 1026', async () => {
    const editable = await bulk(h.key, { links: [{ url: uniqueUrl() }] }, '?editable=maybe');
    expect([editable.status, editable.body.code]).toEqual([400, 1057]);
    const malformed = await request(`${h.url}/create/bulk`, {
      method: 'POST',
      headers: { authorization: h.key, 'content-type': 'application/json' },
      body: '{"links": [',
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 1026]);
  });
});

describe('POST /create/bulk: one result per item, as POST /create would answer', () => {
  it('answers each item in input order: records, and each failure with its own code', async () => {
    const key = await createTestKey(h.apiKeys, ['shortener']);
    const good = uniqueUrl('good');
    const custom = `bulk-${Date.now().toString(36)}`;
    const res = await bulk(key, {
      links: [
        { url: good, credit: 'Otter' },
        { url: 'not a url' },
        'https://example.com/a-string',
        null,
        [{ url: uniqueUrl() }],
        { url: uniqueUrl(), code: 'bad code' },
        { url: uniqueUrl(), code: 'x'.repeat(51) },
        { url: uniqueUrl(), code: 'create' },
        { url: uniqueUrl(), credit: 'c'.repeat(51) },
        { url: uniqueUrl(), maxVisits: '5' },
        { url: uniqueUrl(), expiresAt: '2000-01-01T00:00:00Z' },
        { url: 'http://127.0.0.1/admin' },
        { url: uniqueUrl(), code: custom, maxVisits: 3 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const outcome = res.body.data.map((r) => (r.success ? r.status : r.code));
    expect(outcome).toEqual([201, 1073, 1084, 1084, 1084, 1071, 1070, 1072, 1074, 1082, 1081, 1073, 201]);
    const first = ok(res.body.data[0]);
    expect(first.data).toMatchObject({
      url: good,
      credit: 'Otter',
      managementCode: expect.any(String),
      fullURL: `https://pawl.ink/${first.data.code}`,
    });
    expect(ok(res.body.data[12]).data).toMatchObject({ code: custom, maxVisits: 3 });
    for (const failure of res.body.data.filter((r) => !r.success))
      expect(failure).toEqual({ success: false, code: expect.any(Number), error: expect.any(String) });
    // Each item failed as a single create does.
    const single = await create({ url: h.url, key }, { url: uniqueUrl(), maxVisits: '5' });
    expect(res.body.data[9]).toEqual({ success: false, code: single.body.code, error: single.body.error });
    // The made entries belong to the key, and they work.
    expect((await listed(key)).sort()).toEqual([first.data.code, custom].sort());
    expect((await request(`${h.url}/${first.data.code}`)).headers.get('location')).toBe(good);
  });

  it('fails an item with a field a create does not take (1017, named), and only that item', async () => {
    const res = await bulk(h.key, { links: [{ url: uniqueUrl(), alias: 'x' }, { url: uniqueUrl() }] });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ success: false, code: 1017 });
    expect(res.body.data[0]).toMatchObject({ error: expect.stringContaining('"alias"') });
    expect(res.body.data[1]).toMatchObject({ success: true, status: 201 });
  });

  it('runs items one after the other: a code used twice is 201 then 409, a fixed url twice is 201 then 200 with the same entry', async () => {
    const code = `twice-${Date.now().toString(36)}`;
    const url = uniqueUrl('fixed');
    const codes = await bulk(h.key, {
      links: [
        { url: uniqueUrl(), code },
        { url: uniqueUrl(), code },
      ],
    });
    expect(codes.body.data.map((r) => (r.success ? r.status : r.code))).toEqual([201, 1072]);
    const fixed = await bulk(h.key, { links: [{ url }, { url }] }, '?editable=false');
    const [made, shared] = [ok(fixed.body.data[0]), ok(fixed.body.data[1])];
    expect([made.status, shared.status]).toEqual([201, 200]);
    expect(shared.data.code).toBe(made.data.code);
    expect([made.data.managementCode, shared.data.managementCode]).toEqual([null, null]);
  });

  it('takes 100 items', async () => {
    const res = await bulk(h.key, { links: Array.from({ length: 100 }, () => ({ url: uniqueUrl('hundred') })) });
    expect(res.status).toBe(200);
    expect(res.body.data.filter((r) => r.success && r.status === 201)).toHaveLength(100);
  });
});

describe('POST /create/bulk: read-only mode', () => {
  it('answers 503 1003 and creates nothing', async () => {
    const key = await createTestKey(h.apiKeys, ['shortener']);
    await h.setReadOnly(true);
    try {
      const res = await bulk(key, { links: [{ url: uniqueUrl() }] });
      expect([res.status, res.body.code]).toEqual([503, 1003]);
      expect(res.headers.get('retry-after')).toEqual(expect.any(String));
      // Reading is not affected: the key's list still answers.
      expect((await request(`${h.url}/links`, { headers: { authorization: key } })).status).toBe(200);
    } finally {
      await h.setReadOnly(false);
    }
    expect(await listed(key)).toEqual([]);
  });
});

describe('POST /create/bulk: rate limit units, all or nothing', () => {
  it('takes one unit of shortener.create per item, refuses a request that does not fit whole, and lets one that fits through', async () => {
    const key = await createTestKey(h.apiKeys, ['shortener'], { rateLimitRoute: 8 });
    for (let i = 0; i < 5; i++)
      expect((await create({ url: h.url, key }, { url: uniqueUrl('unit') })).status).toBe(201);

    const refused = await bulk(key, { links: Array.from({ length: 5 }, () => ({ url: uniqueUrl('refused') })) });
    expect([refused.status, refused.body.code]).toEqual([429, 1000]);
    expect(refused.body.info).toMatchObject({ limit: 8, remaining: 3, bucket: 'shortener.create', global: false });
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('3');
    expect(refused.headers.get('x-ratelimit-bucket')).toBe('shortener.create');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await listed(key)).toHaveLength(5);

    const fits = await bulk(key, { links: Array.from({ length: 3 }, () => ({ url: uniqueUrl('fits') })) });
    expect(fits.status).toBe(200);
    expect(fits.body.data.every((r) => r.success)).toBe(true);
    expect(fits.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await listed(key)).toHaveLength(8);
    // The bucket is spent for single creates too.
    const single = await create({ url: h.url, key }, { url: uniqueUrl('after') });
    expect([single.status, single.body.code]).toEqual([429, 1000]);
  });

  it('counts failed items too (each is a create attempt), and a request larger than the limit never fits', async () => {
    const key = await createTestKey(h.apiKeys, ['shortener'], { rateLimitRoute: 4 });
    const mixed = await bulk(key, { links: [{ url: 'bad' }, { url: uniqueUrl() }, 7] });
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get('x-ratelimit-remaining')).toBe('1');
    // Five items never fit in a bucket of four: 422 1086 at once (issue 34), not a 429 whose Retry-After cannot be met.
    const tooMany = await bulk(key, { links: Array.from({ length: 5 }, () => ({ url: uniqueUrl() })) });
    expect([tooMany.status, tooMany.body.code]).toEqual([422, 1086]);
    expect(tooMany.headers.get('retry-after')).toBeNull();
  });

  it('answers 422 1086 at once, naming the bucket, its limit and the most a request can send, taking nothing', async () => {
    const key = await createTestKey(h.apiKeys, ['shortener'], { rateLimitRoute: 4 });
    const links = Array.from({ length: 5 }, () => ({ url: uniqueUrl('above') }));
    const refused = await bulk(key, { links });
    expect([refused.status, refused.body.code]).toEqual([422, 1086]);
    expect(refused.body.extra).toEqual({
      bucket: 'shortener.create',
      limit: 4,
      windowSeconds: 60,
      units: 5,
      maxItems: 4,
    });
    expect(refused.body.error).toMatch(/shortener\.create.*4 per 60 s.*at most 4 items/);
    expect(await listed(key)).toEqual([]);
    // Nothing was taken: four items fit whole.
    const fits = await bulk(key, { links: links.slice(0, 4) });
    expect(fits.status).toBe(200);
    expect(fits.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('lets a key with the default limits send the 100 items the contract allows: 200, every item created', async () => {
    const key = await createTestKey(h.apiKeys, ['shortener'], { rateLimitRoute: null, rateLimitGlobal: null });
    const res = await bulk(key, { links: Array.from({ length: 100 }, () => ({ url: uniqueUrl('default') })) });
    expect(res.status).toBe(200);
    expect(res.body.data.filter((r) => r.success && r.status === 201)).toHaveLength(100);
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('20');
    expect(await listed(key)).toHaveLength(100);
  });

  it('takes 100 items with every field at its longest, past BODY_LIMIT_BYTES (bulk only), and 413 1027 above its own bound', async () => {
    const longUrl = (i: number): string => {
      const head = `https://example.com/${i}/`;
      return head + 'a'.repeat(URL_MAX_LENGTH - head.length);
    };
    const links = Array.from({ length: 100 }, (_, i) => ({
      url: longUrl(i),
      credit: '\u{1F43E}'.repeat(25),
      expiresAt: '2099-12-31T23:59:59.999Z',
      maxVisits: 1_000_000,
    }));
    const text = JSON.stringify({ links });
    expect(text.length).toBeGreaterThan(100 * 1024);
    const res = await bulk(h.key, { links });
    expect(res.status).toBe(200);
    expect(res.body.data.filter((r) => r.success && r.status === 201)).toHaveLength(100);
    // The single create keeps BODY_LIMIT_BYTES.
    const single = await create(h, { url: longUrl(0), padding: 'x'.repeat(110 * 1024) });
    expect([single.status, single.body.code]).toEqual([413, 1027]);
    const tooLarge = await bulk(h.key, { links: [{ url: 'x'.repeat(BULK_CREATE_BODY_MAX_BYTES) }] });
    expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 1027]);
  });

  it('takes one unit of the global window per request, and answers 1001 when that is full', async () => {
    const key = await createTestKey(h.apiKeys, ['shortener'], { rateLimitRoute: 0, rateLimitGlobal: 2 });
    for (let i = 0; i < 2; i++)
      expect((await bulk(key, { links: Array.from({ length: 5 }, () => ({ url: uniqueUrl('global') })) })).status).toBe(
        200,
      );
    const limited = await bulk(key, { links: [{ url: uniqueUrl('global') }] });
    expect([limited.status, limited.body.code]).toEqual([429, 1001]);
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    // Nothing of the refused request was made (GET /links would be refused by the same global window).
    const owner = (await h.apiKeys.findByKey(key))!.id;
    const [row] = await h.dataSource.query('SELECT COUNT(*) AS n FROM short_urls WHERE owner_key_id = ?', [owner]);
    expect(Number(row.n)).toBe(10);
  });
});
