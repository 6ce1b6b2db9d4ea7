import { createTestKey } from '@pawlink/auth/testing';
import { deleteRedisKeys } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

export const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0' };
const BOT = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };

// Short intervals so a visit reaches Redis, then MySQL, within a test's patience.
let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-visits', { SHORTENER_VISITS_FLUSH_MS: '50', SHORTENER_VISITS_MOVE_MS: '100' });
});
afterAll(async () => {
  await h.close();
});

const today = (): string => new Date().toISOString().slice(0, 10);

/** The breakdown of `n` visits by BROWSER from this machine (no Referer; a loopback address is in no country). */
const fromBrowser = (n: number) => ({
  referrers: [{ host: 'direct', visits: n }],
  countries: [{ country: 'unknown', visits: n }],
  browsers: [{ name: 'Firefox', visits: n }],
  os: [{ name: 'Linux', visits: n }],
  devices: { desktop: n, mobile: 0, tablet: 0, other: 0 },
  // Links without rules: every visit is the link's own url.
  rules: [],
  default: n,
});
const NO_BREAKDOWN = {
  referrers: [],
  countries: [],
  browsers: [],
  os: [],
  devices: { desktop: 0, mobile: 0, tablet: 0, other: 0 },
  rules: [],
  default: 0,
};

/** Polls `read` until it answers `expected` (visits travel in batches), then returns it; the assertion is the caller's. */
async function settle<T>(read: () => Promise<T>, expected: T, attempts = 100): Promise<T> {
  let value = await read();
  for (let i = 0; i < attempts && JSON.stringify(value) !== JSON.stringify(expected); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

const visitsOf =
  (base: string, code: string, key = h.key) =>
  async (): Promise<number | undefined> =>
    (await request<{ data?: { visits: number } }>(`${base}/${code}.json`, { headers: { authorization: key } })).body
      .data?.visits;

const movedToMySql = async (code: string): Promise<number> => {
  const [row]: Array<{ visits: string | null }> = await h.dataSource.query(
    'SELECT SUM(v.visits) AS visits FROM short_url_visits v JOIN short_urls s ON s.pos = v.short_url_pos WHERE s.code = ?',
    [code],
  );
  return Number(row?.visits ?? 0);
};

describe('visit counts', () => {
  it('counts GET redirects by people, warm or cold, and not bots or HEAD requests', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const code = body.data.code;
    for (let i = 0; i < 3; i++) expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
    // A cold redirect (through Express) counts too.
    h.cache.clear();
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
    expect((await request(`${h.url}/${code}`, { headers: BOT })).status).toBe(302);
    expect((await request(`${h.url}/${code}`, { method: 'HEAD', headers: BROWSER })).status).toBe(302);
    // Node's fetch says `node`, which is a script, not a person.
    expect((await request(`${h.url}/${code}`)).status).toBe(302);
    expect(await settle(visitsOf(h.url, code), 4)).toBe(4);
  });

  it('answers GET /:code/stats with the total and the UTC days, and counts visits seen by other instances', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const code = body.data.code;
    const second = await h.startInstance();
    await request(`${h.url}/${code}`, { headers: BROWSER });
    await request(`${second.url}/${code}`, { headers: BROWSER });
    const stats = async () => (await request(`${h.url}/${code}/stats`, { headers: { authorization: h.key } })).body;
    const expected = {
      success: true,
      data: { code, visits: 2, days: [{ date: today(), visits: 2 }], ...fromBrowser(2) },
    };
    expect(await settle(stats, expected)).toEqual(expected);
    await second.close();
  });

  it('shows the total on the preview page', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const code = body.data.code;
    await request(`${h.url}/${code}`, { headers: BROWSER });
    await settle(visitsOf(h.url, code), 1);
    // A fresh instance has no preview total in memory yet.
    const other = await h.startInstance();
    const html = (await request(`${other.url}/${code}+`)).text;
    expect(html).toContain('<dt>Visits</dt><dd id="visits">1</dd>');
    await other.close();
  });

  it('answers stats of a link without visits, and 404 1075 for unknown or malformed codes', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const res = await request(`${h.url}/${body.data.code}/stats`, { headers: { authorization: h.key } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { code: body.data.code, visits: 0, days: [], ...NO_BREAKDOWN } });
    for (const code of ['no-such-code', 'bad_code']) {
      const missing = await request(`${h.url}/${code}/stats`, { headers: { authorization: h.key } });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ success: false, code: 1075 });
    }
  });

  it('needs a key with the shortener flag for stats (1013, 1010, 1022)', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const path = `${h.url}/${body.data.code}/stats`;
    expect((await request(path)).body).toMatchObject({ success: false, code: 1013 });
    expect((await request(path, { headers: { authorization: 'not-a-key' } })).body).toMatchObject({
      success: false,
      code: 1010,
    });
    const thumbsOnly = await createTestKey(h.apiKeys, ['thumbs']);
    const res = await request(path, { headers: { authorization: thumbsOnly } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 1022 });
  });

  it('limits stats in a bucket of its own (shortener.stats)', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const limited = await createTestKey(h.apiKeys, ['shortener'], { rateLimitRoute: null, rateLimitGlobal: null });
    const res = await request(`${h.url}/${body.data.code}/stats`, { headers: { authorization: limited } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-bucket')).toBe('shortener.stats');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
  });

  // Last: it stops the first instance.
  it('keeps counts through a restart of every instance and a flush of Redis once they reached MySQL', async () => {
    const { body } = await create(h, { url: uniqueUrl(), code: 'kept-counts' });
    const code = body.data.code;
    for (let i = 0; i < 5; i++) await request(`${h.url}/${code}`, { headers: BROWSER });
    // Stopping (as on SIGTERM) sends the tally to Redis and moves Redis's counts to MySQL.
    await h.first.close();
    expect(await movedToMySql(code)).toBe(5);
    await deleteRedisKeys(h.ctx.redisPrefix);
    const restarted = await h.startInstance();
    expect(await visitsOf(restarted.url, code)()).toBe(5);
    await request(`${restarted.url}/${code}`, { headers: BROWSER });
    expect(await settle(visitsOf(restarted.url, code), 6)).toBe(6);
    const stats = await request(`${restarted.url}/${code}/stats`, { headers: { authorization: h.key } });
    expect(stats.body.data).toEqual({ code, visits: 6, days: [{ date: today(), visits: 6 }], ...fromBrowser(6) });
    expect(await settle(() => movedToMySql(code), 6)).toBe(6);
  });
});
