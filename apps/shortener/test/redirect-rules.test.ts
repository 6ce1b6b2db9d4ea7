import type { ShortUrlWithVisits } from '@pawlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  create,
  invalidated,
  jsonInit,
  request,
  startHarness,
  uniqueUrl,
  type Harness,
  type Instance,
} from './support.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** GB and US in the bundled country database (as the breakdown's tests use them). */
const FROM_GB = '81.2.69.160';
const FROM_US = '8.8.8.8';

// TRUST_PROXY=1: the visitor's address is the last X-Forwarded-For entry, in both lanes.
let h: Harness;
let cold: Instance;
beforeAll(async () => {
  h = await startHarness('sh-rules', {
    TRUST_PROXY: '1',
    SHORTENER_VISITS_FLUSH_MS: '50',
    SHORTENER_VISITS_MOVE_MS: '100',
  });
  cold = await h.startInstance();
});
afterAll(async () => {
  await h.close();
});

interface Answer<T> {
  success: boolean;
  code?: number;
  error?: string;
  data: T;
}

const visitor = (userAgent: string, language = 'en-GB,en;q=0.8', address = FROM_US) => ({
  'user-agent': userAgent,
  'accept-language': language,
  'x-forwarded-for': address,
});

/** Where `GET /:code[query]` sends this visitor, on the warm instance (fast lane) and on a cold one (Express) alike. */
async function targetOf(code: string, headers: Record<string, string>, query = ''): Promise<string | null> {
  const warm = await request(`${h.url}/${code}${query}`, { headers });
  const other = await request(`${cold.url}/${code}${query}`, { headers });
  expect(warm.status).toBe(302);
  expect(other.headers.get('location')).toBe(warm.headers.get('location'));
  expect(warm.headers.get('cache-control')).toBe('private, no-cache');
  return warm.headers.get('location');
}

const PAST = '2020-01-01T00:00:00Z';
const FUTURE = '2999-01-01T00:00:00Z';

describe('rules decide where a visit goes, first holding rule wins', () => {
  const urls = { iphone: uniqueUrl('iphone'), german: uniqueUrl('de'), gb: uniqueUrl('gb'), qr: uniqueUrl('qr') };
  const home = uniqueUrl('home');
  let code: string;

  beforeAll(async () => {
    const res = await create(h, {
      url: home,
      rules: [
        { when: { os: 'ios' }, url: urls.iphone },
        { when: { language: ['de', 'fr-CA'] }, url: urls.german },
        { when: { country: 'gb' }, url: urls.gb },
        { when: { query: { ref: 'qr' } }, url: urls.qr, forwardQuery: true },
        { when: { before: PAST }, url: uniqueUrl('never') },
      ],
    });
    expect(res.status).toBe(201);
    code = res.body.data.code;
    expect(res.body.data.rules).toHaveLength(5);
    expect(res.body.data.rules[2]).toEqual({ when: { country: ['GB'] }, url: urls.gb, forwardQuery: false });
  });

  it('an iPhone goes to the iOS rule, even from a German browser in GB (the first rule holding)', async () => {
    expect(await targetOf(code, visitor(IPHONE))).toBe(urls.iphone);
    expect(await targetOf(code, visitor(IPHONE, 'de-DE', FROM_GB))).toBe(urls.iphone);
  });

  it('a German browser goes to the language rule: de holds for de-AT, by Accept-Language, quality 0 left out', async () => {
    expect(await targetOf(code, visitor(FIREFOX_LINUX, 'en;q=0.5, de-AT'))).toBe(urls.german);
    expect(await targetOf(code, visitor(FIREFOX_LINUX, 'fr-CA'))).toBe(urls.german);
    expect(await targetOf(code, visitor(FIREFOX_LINUX, 'fr-FR, fr;q=0.9'))).toBe(home);
    expect(await targetOf(code, visitor(FIREFOX_LINUX, 'de;q=0, en'))).toBe(home);
  });

  it('a visitor from GB goes to the country rule', async () => {
    expect(await targetOf(code, visitor(FIREFOX_LINUX, 'en-GB', FROM_GB))).toBe(urls.gb);
  });

  it('a visit with ?ref=qr goes to the query rule, its query passed on', async () => {
    expect(await targetOf(code, visitor(FIREFOX_LINUX), '?ref=qr&utm=x')).toBe(`${urls.qr}?ref=qr&utm=x`);
    expect(await targetOf(code, visitor(FIREFOX_LINUX), '?ref=web')).toBe(home);
  });

  it('bots get the link’s own url', async () => {
    expect(await targetOf(code, visitor(GOOGLEBOT, 'de', FROM_GB))).toBe(home);
  });

  it('counts each rule in the stats, the rest as default', async () => {
    const visits = async (headers: Record<string, string>, query = '') =>
      expect((await request(`${h.url}/${code}${query}`, { headers })).status).toBe(302);
    const made = await create(h, {
      url: home,
      rules: [
        { when: { os: 'ios' }, url: urls.iphone },
        { when: { language: 'de' }, url: urls.german },
      ],
    });
    code = made.body.data.code;
    await visits(visitor(IPHONE));
    await visits(visitor(IPHONE));
    await visits(visitor(FIREFOX_LINUX, 'de'));
    await visits(visitor(FIREFOX_LINUX, 'en'));
    await visits(visitor(GOOGLEBOT, 'de'));
    let stats = { visits: 0, rules: [] as unknown[], default: -1 };
    for (let i = 0; i < 100 && stats.visits < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = (await request<Answer<typeof stats>>(`${h.url}/${code}/stats`, { headers: { authorization: h.key } }))
        .body.data;
    }
    expect(stats.rules).toEqual([
      { index: 0, visits: 2 },
      { index: 1, visits: 1 },
    ]);
    expect([stats.visits, stats.default]).toEqual([4, 1]);
  });
});

describe('time conditions', () => {
  it('after a past date holds, after a future date does not, before a future date does', async () => {
    const later = uniqueUrl('later');
    const made = await create(h, {
      url: uniqueUrl('home'),
      rules: [
        { when: { after: FUTURE }, url: uniqueUrl('not-yet') },
        { when: { after: PAST, before: FUTURE }, url: later },
      ],
    });
    expect(await targetOf(made.body.data.code, visitor(FIREFOX_LINUX))).toBe(later);
  });
});

describe('caching', () => {
  it('a plain link keeps its max-age; a link with rules is revalidated at each visit', async () => {
    const plain = await create(h, { url: uniqueUrl() });
    const res = await request(`${h.url}/${plain.body.data.code}`, { headers: visitor(FIREFOX_LINUX) });
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
  });

  it('a rules edit reaches every instance at once; [] removes them; the same list is no change', async () => {
    const home = uniqueUrl('home');
    const phone = uniqueUrl('phone');
    const made = await create(h, { url: home });
    const { code, managementCode } = made.body.data;
    for (const base of [h.url, cold.url]) {
      await request(`${base}/${code}`, { headers: visitor(IPHONE) });
      await request(`${base}/${code}`, { headers: visitor(IPHONE) });
    }
    const patch = (rules: unknown) =>
      request<Answer<ShortUrlWithVisits>>(
        `${h.url}/${code}`,
        jsonInit('PATCH', { managementCode, rules }, { authorization: h.key }),
      );
    const announced = invalidated(cold.cache, code);
    expect((await patch([{ when: { device: 'mobile' }, url: phone }])).status).toBe(200);
    await announced;
    expect(await targetOf(code, visitor(IPHONE))).toBe(phone);
    const same = await patch([{ when: { device: ['mobile'] }, url: phone }]);
    expect([same.status, same.body.code]).toEqual([400, 1080]);
    const removedOnCold = invalidated(cold.cache, code);
    const removed = await patch([]);
    expect([removed.status, removed.body.data.rules]).toEqual([200, []]);
    await removedOnCold;
    for (const base of [h.url, cold.url]) {
      const res = await request(`${base}/${code}`, { headers: visitor(IPHONE) });
      expect([res.headers.get('location'), res.headers.get('cache-control')]).toEqual([home, 'private, max-age=60']);
    }
  });
});

describe('what the record and the preview show', () => {
  it('the JSON form has the rules; the preview lists their urls', async () => {
    const phone = uniqueUrl('phone-target');
    const made = await create(h, { url: uniqueUrl(), rules: [{ when: { device: 'mobile' }, url: phone }] });
    const json = await request<Answer<ShortUrlWithVisits>>(`${h.url}/${made.body.data.code}.json`, {
      headers: { authorization: h.key },
    });
    expect(json.body.data.rules).toEqual([{ when: { device: ['mobile'] }, url: phone, forwardQuery: false }]);
    const preview = await request(`${h.url}/${made.body.data.code}+`);
    expect(preview.text).toContain('id="rule-targets"');
    expect(preview.text).toContain(phone);
  });

  it('a protected link with rules: the right password goes where the rules say, never stored', async () => {
    const phone = uniqueUrl('locked-phone');
    const made = await create(h, {
      url: uniqueUrl(),
      password: 'open sesame',
      rules: [{ when: { os: 'ios' }, url: phone }],
    });
    const code = made.body.data.code;
    expect((await request(`${h.url}/${code}`, { headers: visitor(IPHONE) })).status).toBe(200);
    const res = await request(`${h.url}/${code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...visitor(IPHONE) },
      body: 'password=open+sesame',
    });
    expect([res.status, res.headers.get('location'), res.headers.get('cache-control')]).toEqual([
      302,
      phone,
      'no-store',
    ]);
  });
});

describe('bad rules: 400 1091 naming the rule and field', () => {
  const ok = { when: { device: 'mobile' }, url: 'https://example.com/m' };
  it.each([
    ['not a list', { a: 1 }, null, 'rules'],
    ['21 rules', Array.from({ length: 21 }, () => ok), null, 'rules'],
    ['a rule that is not an object', [ok, 'x'], 1, 'rule'],
    ['an unknown field', [{ ...ok, weight: 2 }], 0, 'weight'],
    ['no conditions', [{ when: {}, url: ok.url }], 0, 'when'],
    ['when not an object', [{ when: 'mobile', url: ok.url }], 0, 'when'],
    ['an unknown condition', [ok, { when: { city: 'Berlin' }, url: ok.url }], 1, 'when.city'],
    ['a bad device', [{ when: { device: 'watch' }, url: ok.url }], 0, 'when.device'],
    ['a bad os', [{ when: { os: 'beos' }, url: ok.url }], 0, 'when.os'],
    ['a bad browser', [{ when: { browser: 'netscape' }, url: ok.url }], 0, 'when.browser'],
    ['an empty list of values', [{ when: { device: [] }, url: ok.url }], 0, 'when.device'],
    ['a bad language', [{ when: { language: 'german language' }, url: ok.url }], 0, 'when.language'],
    ['a bad country', [{ when: { country: 'GBR' }, url: ok.url }], 0, 'when.country'],
    ['a date without zone', [{ when: { after: '2030-01-01T00:00:00' }, url: ok.url }], 0, 'when.after'],
    ['before not after after', [{ when: { after: FUTURE, before: PAST }, url: ok.url }], 0, 'when.before'],
    ['a query value that is not a string', [{ when: { query: { ref: 1 } }, url: ok.url }], 0, 'when.query.ref'],
    ['an empty query', [{ when: { query: {} }, url: ok.url }], 0, 'when.query'],
    ['no url', [{ when: ok.when }], 0, 'url'],
    ['a private url', [ok, { when: ok.when, url: 'http://127.0.0.1/admin' }], 1, 'url'],
    ['a javascript url', [{ when: ok.when, url: 'javascript:alert(1)' }], 0, 'url'],
    ['forwardQuery not a boolean', [{ ...ok, forwardQuery: 'yes' }], 0, 'forwardQuery'],
  ])('refuses %s', async (_, rules, index, field) => {
    const res = await create(h, { url: uniqueUrl('refused'), rules });
    expect([res.status, res.body.code]).toEqual([400, 1091]);
    const body = res.body as unknown as Answer<unknown>;
    expect(body.error).toContain(index === null ? 'rules must' : `rules[${index}].${field} `);
  });

  it('refuses bad rules on PATCH too', async () => {
    const made = await create(h, { url: uniqueUrl() });
    const res = await request<Answer<unknown>>(
      `${h.url}/${made.body.data.code}`,
      jsonInit(
        'PATCH',
        { managementCode: made.body.data.managementCode, rules: [{ when: { device: 'car' }, url: 'https://e.com' }] },
        { authorization: h.key },
      ),
    );
    expect([res.status, res.body.code]).toEqual([400, 1091]);
    expect(res.body.error).toContain('rules[0].when.device');
  });
});
