import { createTestKey } from '@pawlink/auth/testing';
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

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0' };
const BOT = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
const PASSWORD = 'correct horse';

let h: Harness;
let second: Instance;
beforeAll(async () => {
  h = await startHarness('sh-password');
  second = await h.startInstance();
});
afterAll(async () => {
  await h.close();
});

interface Answer<T> {
  success: boolean;
  code?: number;
  data: T;
}

/** A protected link made with the harness key: its code, target and management code. */
async function protectedLink(body: Record<string, unknown> = {}) {
  const url = uniqueUrl('secret');
  const res = await create(h, { url, password: PASSWORD, ...body });
  expect(res.status).toBe(201);
  return { code: res.body.data.code, url, managementCode: res.body.data.managementCode!, record: res.body.data };
}

/** The form's POST, as a browser sends it (urlencoded), from `address` (X-Forwarded-For is not trusted: all tests share 127.0.0.1). */
const submit = (code: string, password: string, base = h.url, headers: Record<string, string> = BROWSER) =>
  request(`${base}/${code}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ password }).toString(),
  });

const visitsOf = async (code: string): Promise<number> =>
  (await request<Answer<ShortUrlWithVisits>>(`${h.url}/${code}.json`, { headers: { authorization: h.key } })).body.data
    .visits;

async function settle<T>(read: () => Promise<T>, expected: T): Promise<T> {
  let value = await read();
  for (let i = 0; i < 100 && value !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

describe('password on create and PATCH', () => {
  it('is never returned: the record says protected', async () => {
    const { record } = await protectedLink();
    expect(record.protected).toBe(true);
    expect(JSON.stringify(record)).not.toContain(PASSWORD);
    const plain = await create(h, { url: uniqueUrl() });
    expect(plain.body.data.protected).toBe(false);
  });

  it.each([
    ['7 characters', 'seven77'],
    ['129 characters', 'p'.repeat(129)],
    ['a number', 12345678],
    ['a list', ['password']],
  ])('refuses %s with 422 1088', async (_, password) => {
    const res = await create(h, { url: uniqueUrl(), password });
    expect([res.status, res.body.code]).toEqual([422, 1088]);
  });

  it('takes 8 and 128 characters (emoji counted as one)', async () => {
    for (const password of ['12345678', 'p'.repeat(128), '🦊'.repeat(8)]) {
      const res = await create(h, { url: uniqueUrl(), password });
      expect([res.status, res.body.data.protected]).toEqual([201, true]);
    }
  });

  it('a non-editable create with a password makes its own entry', async () => {
    const url = uniqueUrl('shared');
    const plain = await create(h, { url }, { editable: false });
    const locked = await create(h, { url, password: PASSWORD }, { editable: false });
    expect(locked.status).toBe(201);
    expect(locked.body.data.code).not.toBe(plain.body.data.code);
  });

  it('PATCH adds, changes and removes it (null); null on a link without one is no change (1080); a bad one is 1088', async () => {
    const made = await create(h, { url: uniqueUrl() });
    const { code, managementCode } = made.body.data;
    const patch = (body: Record<string, unknown>) =>
      request<Answer<ShortUrlWithVisits>>(
        `${h.url}/${code}`,
        jsonInit('PATCH', { managementCode, ...body }, { authorization: h.key }),
      );
    expect((await patch({ password: null })).body.code).toBe(1080);
    expect((await patch({ password: 'short' })).body.code).toBe(1088);
    const added = await patch({ password: PASSWORD });
    expect([added.status, added.body.data.protected]).toEqual([200, true]);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(200);
    expect((await patch({ password: 'another password' })).status).toBe(200);
    expect((await submit(code, PASSWORD)).status).toBe(401);
    expect((await submit(code, 'another password')).status).toBe(302);
    const removed = await patch({ password: null });
    expect([removed.status, removed.body.data.protected]).toEqual([200, false]);
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(302);
  });
});

describe('GET /:code of a protected link', () => {
  it('answers 200 with the form, never the target, not stored, not indexed (browsers, bots and HEAD alike)', async () => {
    const { code, url } = await protectedLink();
    for (const headers of [BROWSER, BOT]) {
      const res = await request(`${h.url}/${code}`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-robots-tag')).toContain('noindex');
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("form-action 'self'");
      expect(res.text).toContain('<form method="post"');
      expect(res.text).toContain('name="password"');
      expect(res.text).not.toContain(url);
    }
    const head = await request(`${h.url}/${code}`, { method: 'HEAD', headers: BROWSER });
    expect([head.status, head.headers.get('location')]).toEqual([200, null]);
  });

  it('counts no visit for the form', async () => {
    const { code } = await protectedLink();
    await request(`${h.url}/${code}`, { headers: BROWSER });
    await request(`${h.url}/${code}`, { headers: BROWSER });
    expect(await visitsOf(code)).toBe(0);
  });
});

describe('POST /:code', () => {
  it('redirects on the right password (not stored) and counts the visit then', async () => {
    const { code, url } = await protectedLink();
    const res = await submit(code, PASSWORD);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(url);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await settle(() => visitsOf(code), 1)).toBe(1);
    // Nothing is remembered: the next visit asks again.
    expect((await request(`${h.url}/${code}`, { headers: BROWSER })).status).toBe(200);
  });

  it('takes the password as JSON too', async () => {
    const { code, url } = await protectedLink();
    const res = await request(`${h.url}/${code}`, jsonInit('POST', { password: PASSWORD }, BROWSER));
    expect([res.status, res.headers.get('location')]).toEqual([302, url]);
  });

  it('answers a wrong or missing password 401 with the form, saying so, and counts no visit', async () => {
    const { code, url } = await protectedLink();
    for (const password of ['wrong password', '']) {
      const res = await submit(code, password);
      expect(res.status).toBe(401);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.text).toContain('Wrong password');
      expect(res.text).toContain('(code 1089)');
      expect(res.text).not.toContain(url);
    }
    const none = await request(`${h.url}/${code}`, jsonInit('POST', {}, BROWSER));
    expect(none.status).toBe(401);
    const notText = await request(`${h.url}/${code}`, jsonInit('POST', { password: 12345678 }, BROWSER));
    expect(notText.status).toBe(401);
    expect(await visitsOf(code)).toBe(0);
  });

  it('allows 10 wrong passwords a minute per address and link, then 429 with Retry-After whatever the password', async () => {
    const { code } = await protectedLink();
    const other = await protectedLink();
    for (let i = 0; i < 10; i++) expect((await submit(code, `wrong ${i} password`)).status).toBe(401);
    const limited = await submit(code, PASSWORD);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.text).toContain('(code 1090)');
    expect(limited.headers.get('location')).toBeNull();
    // The window is the link's: another link from the same address is not limited, on any instance.
    expect((await submit(other.code, PASSWORD, second.url)).status).toBe(302);
    expect((await submit(code, PASSWORD, second.url)).status).toBe(429);
  });

  it('follows a link without a password as GET does; 404 text for an unknown or malformed code', async () => {
    const plain = await create(h, { url: uniqueUrl() });
    const res = await submit(plain.body.data.code, 'anything');
    expect([res.status, res.headers.get('location')]).toEqual([302, plain.body.data.url]);
    for (const code of ['no-such-code', 'bad_code']) {
      const unknown = await submit(code, 'anything');
      expect([unknown.status, unknown.text]).toEqual([404, 'Unknown short url code.']);
    }
  });

  it('admits a maxVisits link’s visit on the right password only', async () => {
    const { code, url } = await protectedLink({ maxVisits: 1 });
    expect((await submit(code, 'wrong password')).status).toBe(401);
    expect((await submit(code, PASSWORD)).headers.get('location')).toBe(url);
    expect((await submit(code, PASSWORD)).status).toBe(410);
  });

  it('answers 410 for an expired protected link', async () => {
    const { code, managementCode } = await protectedLink({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await h.dataSource.query('UPDATE short_urls SET expires_at = ? WHERE code = ?', [
      new Date(Date.now() - 1000),
      code,
    ]);
    await request(`${h.url}/${code}`, jsonInit('PATCH', { managementCode, credit: 'nudge' }, { authorization: h.key }));
    expect((await submit(code, PASSWORD)).status).toBe(410);
  });
});

describe('what the JSON form and the preview show', () => {
  it('hides the target from other keys (url null, protected true), shows it to the owner', async () => {
    const owner = await createTestKey(h.apiKeys, ['shortener']);
    const url = uniqueUrl('owned');
    const made = await create(h, { url, password: PASSWORD }, { headers: { authorization: owner } });
    const code = made.body.data.code;
    const theirs = await request<Answer<ShortUrlWithVisits>>(`${h.url}/${code}.json`, {
      headers: { authorization: h.key },
    });
    expect([theirs.body.data.url, theirs.body.data.protected]).toEqual([null, true]);
    const mine = await request<Answer<ShortUrlWithVisits>>(`${h.url}/${code}.json`, {
      headers: { authorization: owner },
    });
    expect([mine.body.data.url, mine.body.data.protected]).toEqual([url, true]);
  });

  it('never shows the target on the preview page', async () => {
    const { code, url } = await protectedLink();
    const res = await request(`${h.url}/${code}+`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('password-protected');
    expect(res.text).not.toContain(url);
  });
});

describe('edits reach every instance at once', () => {
  it('a password added to a warm link asks for it on both instances', async () => {
    const made = await create(h, { url: uniqueUrl() });
    const { code, managementCode } = made.body.data;
    for (const base of [h.url, second.url]) {
      expect((await request(`${base}/${code}`, { headers: BROWSER })).status).toBe(302);
      expect((await request(`${base}/${code}`, { headers: BROWSER })).status).toBe(302);
    }
    const announced = invalidated(second.cache, code);
    const res = await request(
      `${h.url}/${code}`,
      jsonInit('PATCH', { managementCode, password: PASSWORD }, { authorization: h.key }),
    );
    expect(res.status).toBe(200);
    await announced;
    for (const base of [h.url, second.url])
      expect((await request(`${base}/${code}`, { headers: BROWSER })).status).toBe(200);
  });
});
