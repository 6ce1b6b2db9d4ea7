import { createTestKey } from '@pawlink/auth/testing';
import { createRedis } from '@pawlink/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
let throttled: Harness;
beforeAll(async () => {
  h = await startHarness('sh-console-session');
  throttled = await startHarness(
    'sh-console-throttle',
    {},
    { limits: { invalidKeys: { limit: 2, windowMs: 60_000 } } },
  );
}, 120_000);
afterAll(async () => {
  await h?.close();
  await throttled?.close();
});

const FROM_CONSOLE = { 'x-pawlink-console': '1' };

/** Signs in with `key` and gives the session cookie (`name=value`) and the whole answer. */
async function signIn(base: Harness, key: string) {
  const res = await request<{ success: boolean; code?: number; data: { expiresAt: string } }>(
    `${base.url}/console/session`,
    {
      method: 'POST',
      headers: { authorization: key, ...FROM_CONSOLE },
    },
  );
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { res, setCookie, cookie: setCookie.split(';')[0]! };
}

describe('POST /console/session', () => {
  it('refuses a request without a key, an unknown key and a key without the shortener flag as the API does', async () => {
    const none = await request(`${h.url}/console/session`, { method: 'POST', headers: FROM_CONSOLE });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(1013);
    expect(none.headers.get('set-cookie')).toBeNull();

    const wrong = await signIn(h, 'not-a-key-' + 'x'.repeat(30));
    const api = await request(`${h.url}/links`, { headers: { authorization: 'not-a-key-' + 'x'.repeat(30) } });
    expect(wrong.res.status).toBe(api.status);
    expect(wrong.res.body).toEqual(api.body);
    expect(wrong.res.body.code).toBe(1010);
    expect(wrong.setCookie).toBe('');

    const thumbsOnly = await createTestKey(h.apiKeys, ['thumbs']);
    const flagless = await signIn(h, thumbsOnly);
    expect(flagless.res.status).toBe(403);
    expect(flagless.res.body.code).toBe(1022);
    expect(flagless.setCookie).toBe('');
  });

  it('counts wrong keys against the invalid-key throttle like any request', async () => {
    for (let i = 0; i < 2; i += 1)
      expect((await signIn(throttled, `wrong-${i}-${'y'.repeat(30)}`)).res.status).toBe(401);
    const third = await signIn(throttled, `wrong-3-${'y'.repeat(30)}`);
    expect(third.res.status).toBe(429);
    expect(third.res.headers.get('x-ratelimit-bucket')).toBe('auth.invalid');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie (Secure on an https SHORTENER_URL), never cached', async () => {
    const { res, setCookie, cookie } = await signIn(h, h.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Date.parse(res.body.data.expiresAt)).toBeGreaterThan(Date.now());
    expect(setCookie).toMatch(/^pawlink_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    // The cookie holds an opaque id, not the key.
    expect(cookie).not.toContain(h.key);
  });

  it('leaves out Secure when SHORTENER_URL is http', async () => {
    const plain = await startHarness('sh-console-http', { SHORTENER_URL: 'http://links.test' });
    try {
      const { setCookie } = await signIn(plain, plain.key);
      expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict$/);
    } finally {
      await plain.close();
    }
  });
});

describe('the session cookie on API requests', () => {
  it('stands for the key only on requests that send the console header', async () => {
    const created = await create(h, { url: uniqueUrl('console') });
    expect(created.status).toBe(201);
    const { cookie } = await signIn(h, h.key);

    const fromConsole = await request<{ data: { links: Array<{ code: string }> } }>(`${h.url}/links`, {
      headers: { cookie, ...FROM_CONSOLE },
    });
    expect(fromConsole.status).toBe(200);
    expect(fromConsole.body.data.links.map((link) => link.code)).toContain(created.body.data.code);

    // A cross-site form or link cannot add the header: the cookie alone is no key.
    const cookieOnly = await request(`${h.url}/links`, { headers: { cookie } });
    expect(cookieOnly.status).toBe(401);
    expect(cookieOnly.body.code).toBe(1013);
    const post = await request(`${h.url}/create`, jsonInit('POST', { url: uniqueUrl() }, { cookie }));
    expect(post.status).toBe(401);
    expect(post.body.code).toBe(1013);
  });

  it('gives nothing for an unknown or malformed session id', async () => {
    for (const id of ['A'.repeat(43), 'short', '']) {
      const res = await request(`${h.url}/links`, { headers: { cookie: `pawlink_console=${id}`, ...FROM_CONSOLE } });
      expect(res.status, id).toBe(401);
      expect(res.body.code, id).toBe(1013);
    }
  });

  it('lets an Authorization header win over the cookie', async () => {
    const { cookie } = await signIn(h, h.key);
    const res = await request(`${h.url}/links`, {
      headers: { cookie, authorization: 'wrong-' + 'z'.repeat(30), ...FROM_CONSOLE },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1010);
  });

  it('stores the key sealed in Redis, not in clear', async () => {
    await signIn(h, h.key);
    const keys = await h.redis.keys(`${h.config.redis.prefix}console:session:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(await h.redis.ttl(key)).toBeGreaterThan(0);
      expect(await h.redis.get(key)).not.toContain(h.key);
    }
  });
});

describe('DELETE /console/session', () => {
  it('ends the session and clears the cookie', async () => {
    const { cookie } = await signIn(h, h.key);
    const out = await request(`${h.url}/console/session`, { method: 'DELETE', headers: { cookie, ...FROM_CONSOLE } });
    expect(out.status).toBe(204);
    expect(out.headers.get('cache-control')).toBe('no-store');
    expect(out.headers.get('set-cookie')).toMatch(/^pawlink_console=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict/);
    const after = await request(`${h.url}/links`, { headers: { cookie, ...FROM_CONSOLE } });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(1013);
  });

  it('does not end a session for a request without the console header (it still clears the cookie)', async () => {
    const { cookie } = await signIn(h, h.key);
    const out = await request(`${h.url}/console/session`, { method: 'DELETE', headers: { cookie } });
    expect(out.status).toBe(204);
    expect((await request(`${h.url}/links`, { headers: { cookie, ...FROM_CONSOLE } })).status).toBe(200);
  });
});

describe('the console page and its assets', () => {
  it('redirects /console to /console/ and serves the page under a CSP without inline code', async () => {
    const bare = await request(`${h.url}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`${h.config.urls.shortener}/console/`);
    const page = await request(`${h.url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.text).not.toMatch(/<script>|<style|style=/);
    const assets = [...page.text.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBe(2);
    for (const asset of assets) {
      const res = await request(`${h.url}/console/${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers an unknown asset 404 1024', async () => {
    for (const name of ['nope.js', '..%2Fpackage.json']) {
      const res = await request(`${h.url}/console/assets/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.code, name).toBe(1024);
    }
  });

  it('reserves the code "console"', async () => {
    const res = await create(h, { url: uniqueUrl(), code: 'Console' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(1072);
  });
});

describe('with Redis unavailable', () => {
  it('answers sign-in and session lookups 503 1004', async () => {
    const broken = createRedis(h.config.redis, { name: 'shortener-test-broken' });
    await broken.ping();
    broken.disconnect();
    const degraded = await h.startInstance({ redis: broken });
    const signin = await request(`${degraded.url}/console/session`, {
      method: 'POST',
      headers: { authorization: h.key, ...FROM_CONSOLE },
    });
    expect(signin.status).toBe(503);
    expect(signin.body.code).toBe(1004);
    const { cookie } = await signIn(h, h.key);
    const lookup = await request(`${degraded.url}/links`, { headers: { cookie, ...FROM_CONSOLE } });
    expect(lookup.status).toBe(503);
    expect(lookup.body.code).toBe(1004);
    await degraded.close();
  });
});
