import escapeHtml from 'escape-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, SHORTENER_URL, startHarness, uniqueUrl, type Harness } from './support.js';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0' };
const BOT = { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' };

// The service's clock runs `skew` ms ahead of the real one, so a test can move past an expiry date.
let skew = 0;
let h: Harness;
beforeAll(async () => {
  h = await startHarness(
    'sh-expiry',
    { SHORTENER_VISITS_FLUSH_MS: '50', SHORTENER_VISITS_MOVE_MS: '100' },
    { clock: () => new Date(Date.now() + skew) },
  );
});
afterAll(async () => {
  await h.close();
});

const inAnHour = (): string => new Date(Date.now() + 3_600_000).toISOString();
const auth = (): Record<string, string> => ({ authorization: h.key });
const patch = (code: string, body: unknown) => request(`${h.url}/${code}`, jsonInit('PATCH', body, auth()));

describe('expiresAt and maxVisits on create', () => {
  it('are echoed in records, null when unset', async () => {
    const expiresAt = inAnHour();
    const res = await create(h, { url: uniqueUrl(), expiresAt, maxVisits: 3 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ expiresAt, maxVisits: 3 });
    const plain = await create(h, { url: uniqueUrl() });
    expect(plain.body.data).toMatchObject({ expiresAt: null, maxVisits: null });
    const json = await request(`${h.url}/${res.body.data.code}.json`, { headers: auth() });
    expect(json.body.data).toMatchObject({ expiresAt, maxVisits: 3, visits: 0 });
  });

  it('accept a zone offset and a form body (maxVisits as digits)', async () => {
    const res = await request(`${h.url}/create`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        url: uniqueUrl(),
        expiresAt: '2099-06-01T12:00:00+02:00',
        maxVisits: '7',
      }).toString(),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ expiresAt: '2099-06-01T10:00:00.000Z', maxVisits: 7 });
  });

  it.each([
    ['in the past', '2000-01-01T00:00:00Z'],
    ['without a zone', '2099-01-01T00:00:00'],
    ['a date alone', '2099-01-01'],
    ['a day the month lacks', '2099-02-30T00:00:00Z'],
    ['hour 24', '2099-01-01T24:00Z'],
    ['not a date', 'tomorrow'],
    ['a number', 4102444800000],
    ['an object', { at: '2099-01-01T00:00:00Z' }],
  ])('refuse expiresAt %s with 422 1081', async (_, expiresAt) => {
    const res = await create(h, { url: uniqueUrl(), expiresAt });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 1081 });
  });

  it.each([[0], [-1], [1.5], ['abc'], ['1e3'], [2_147_483_648], [true], [[3]]])(
    'refuse maxVisits %j with 422 1082',
    async (maxVisits) => {
      const res = await create(h, { url: uniqueUrl(), maxVisits });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code: 1082 });
    },
  );

  it('are never shared: a non-editable create with limits makes its own entry, and a plain one never gets it', async () => {
    const url = uniqueUrl();
    const limited = await create(h, { url, maxVisits: 2 }, { editable: false });
    expect(limited.status).toBe(201);
    expect(limited.body.data.managementCode).toBeNull();
    const plain = await create(h, { url }, { editable: false });
    expect(plain.status).toBe(201);
    expect(plain.body.data.code).not.toBe(limited.body.data.code);
    const again = await create(h, { url, expiresAt: inAnHour() }, { editable: false });
    expect(again.status).toBe(201);
    expect(again.body.data.code).not.toBe(plain.body.data.code);
    // The plain entry is the url's shared one.
    const shared = await create(h, { url }, { editable: false });
    expect(shared.status).toBe(200);
    expect(shared.body.data.code).toBe(plain.body.data.code);
  });
});

describe('an expired link', () => {
  it('answers 410: HTML on the redirect and the preview, 1083 on the JSON form; stats still answer', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const { body } = await create(h, { url: uniqueUrl(), expiresAt });
    const code = body.data.code;
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
    skew = 120_000;
    try {
      // Warm in memory: the fast path must not serve it.
      expect(h.cache.peek(code)).toBeDefined();
      for (const path of [`/${code}`, `/${code}+`]) {
        const res = await request(`${h.url}${path}`, { headers: BROWSER });
        expect(res.status, path).toBe(410);
        expect(res.headers.get('location'), path).toBeNull();
        expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
        expect(res.headers.get('content-security-policy'), path).toContain("default-src 'none'");
        expect(res.text, path).toContain('This short link has expired');
        expect(res.text, path).toContain(`<time datetime="${expiresAt}">`);
        expect(res.text, path).toContain(escapeHtml(`${SHORTENER_URL}/${code}`));
        expect(res.text, path).not.toContain(body.data.url);
      }
      const json = await request(`${h.url}/${code}.json`, { headers: auth() });
      expect(json.status).toBe(410);
      expect(json.body).toEqual({
        success: false,
        code: 1083,
        error: 'This short url has expired.',
        extra: { expiredAt: expiresAt, reason: 'expiresAt' },
      });
      const stats = await request(`${h.url}/${code}/stats`, { headers: auth() });
      expect(stats.status).toBe(200);
      expect(stats.body.data.code).toBe(code);
    } finally {
      skew = 0;
    }
  });

  it('comes back when PATCH moves expiresAt later or clears it (with the management code), on every instance', async () => {
    const { body } = await create(h, { url: uniqueUrl(), expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const { code, managementCode } = body.data;
    const second = await h.startInstance();
    expect((await request(`${second.url}/${code}`)).status).toBe(302);
    skew = 120_000;
    try {
      expect((await request(`${second.url}/${code}`)).status).toBe(410);
      expect((await patch(code, { expiresAt: null })).status).toBe(401);
      const wrong = await patch(code, { managementCode: 'not-the-code', expiresAt: null });
      expect(wrong.body.code).toBe(1078);
      const cleared = await patch(code, { managementCode, expiresAt: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ expiresAt: null, maxVisits: null });
      expect((await request(`${h.url}/${code}`)).status).toBe(302);
      expect((await request(`${second.url}/${code}`)).status).toBe(302);
      expect((await patch(code, { managementCode, expiresAt: null })).body.code).toBe(1080);
      // A past date cannot be set by PATCH either.
      expect((await patch(code, { managementCode, expiresAt: '2001-01-01T00:00:00Z' })).body.code).toBe(1081);
      expect((await patch(code, { managementCode, maxVisits: 0 })).body.code).toBe(1082);
    } finally {
      skew = 0;
      await second.close();
    }
  });
});

describe('maxVisits', () => {
  it('lets exactly maxVisits of many concurrent visits through; the rest answer 410', async () => {
    const { body } = await create(h, { url: uniqueUrl(), maxVisits: 5 });
    const code = body.data.code;
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => request(`${h.url}/${code}`, { headers: BROWSER }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 302)).toHaveLength(5);
    expect(statuses.filter((s) => s === 410)).toHaveLength(35);
    const json = await request(`${h.url}/${code}.json`, { headers: auth() });
    expect(json.status).toBe(410);
    expect(json.body).toMatchObject({ code: 1083, extra: { reason: 'maxVisits' } });
    const page = await request(`${h.url}/${code}+`);
    expect(page.status).toBe(410);
    expect(page.text).toContain('It reached its limit of 5 visits');
  });

  it('redirects bots and HEAD requests without using a visit up, until the limit is reached', async () => {
    const { body } = await create(h, { url: uniqueUrl(), maxVisits: 1 });
    const code = body.data.code;
    for (let i = 0; i < 3; i++) expect((await request(`${h.url}/${code}`, { headers: BOT })).status).toBe(302);
    expect((await request(`${h.url}/${code}`, { method: 'HEAD', headers: BROWSER })).status).toBe(302);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(410);
    expect((await request(`${h.url}/${code}`, { headers: BOT })).status).toBe(410);
  });

  it('counts the visits a link already has when PATCH sets it, and a higher limit lets visits through again', async () => {
    const { body } = await create(h, { url: uniqueUrl() });
    const { code, managementCode } = body.data;
    for (let i = 0; i < 2; i++) await request(`${h.url}/${code}`, { headers: BROWSER });
    // Wait until both visits show in `visits`: that is what maxVisits counts from.
    for (
      let i = 0;
      i < 100 && (await request(`${h.url}/${code}.json`, { headers: auth() })).body.data.visits !== 2;
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
    const limited = await patch(code, { managementCode, maxVisits: 3 });
    expect(limited.body.data).toMatchObject({ maxVisits: 3, visits: 2 });
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(410);
    expect((await patch(code, { managementCode, maxVisits: 4 })).status).toBe(200);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(410);
    expect((await patch(code, { managementCode, maxVisits: null })).body.data.maxVisits).toBeNull();
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
  });

  it('shows the limit and the date on the preview of a live link', async () => {
    const expiresAt = inAnHour();
    const { body } = await create(h, { url: uniqueUrl(), maxVisits: 10, expiresAt });
    const html = (await request(`${h.url}/${body.data.code}+`)).text;
    expect(html).toContain('<dt>Visit limit</dt><dd id="max-visits">10</dd>');
    expect(html).toContain(`<dt>Expires</dt><dd id="expires"><time datetime="${expiresAt}">`);
  });
});
