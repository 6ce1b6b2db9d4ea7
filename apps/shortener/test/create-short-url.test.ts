import { hashManagementCode } from '@pawlink/auth';
import { RANDOM_CODE_ALPHABET } from '@pawlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, SHORTENER_URL, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-create');
});
afterAll(async () => {
  await h.close();
});

describe('POST /create — auth', () => {
  it('requires an API key (401 1013)', async () => {
    const res = await create(h, { url: uniqueUrl() }, { headers: {} });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 1013 });
  });

  it('refuses an unknown key (401 1010) and a key without the shortener flag (403 1022)', async () => {
    const unknown = await create(h, { url: uniqueUrl() }, { headers: { authorization: 'pl_not-a-real-key' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe(1010);
    const { key } = await h.apiKeys.create({ name: 'thumbs only', contact: 'x@example.com', flags: ['thumbs'] });
    const noFlag = await create(h, { url: uniqueUrl() }, { headers: { authorization: `Bearer ${key}` } });
    expect(noFlag.status).toBe(403);
    expect(noFlag.body.code).toBe(1022);
  });

  it('rate limits per key on the shortener.create bucket (429 1000)', async () => {
    const { key } = await h.apiKeys.create({
      name: 'limited',
      contact: 'x@example.com',
      flags: ['shortener'],
      rateLimitRoute: 1,
      rateLimitGlobal: 0,
    });
    const first = await create(h, { url: uniqueUrl() }, { headers: { authorization: key } });
    expect(first.status).toBe(201);
    const second = await create(h, { url: uniqueUrl() }, { headers: { authorization: key } });
    expect(second.status).toBe(429);
    expect(second.body.code).toBe(1000);
    expect(second.headers.get('x-ratelimit-bucket')).toBe('shortener.create');
  });
});

describe('POST /create — success', () => {
  it('creates an entry with a random 8-character code, default credit and, with ?editable=false, no management code', async () => {
    const url = uniqueUrl();
    const res = await create(h, { url }, { editable: false, headers: { authorization: h.key, host: 'evil.example' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const data = res.body.data;
    expect(res.body.success).toBe(true);
    expect(data.code).toHaveLength(8);
    expect([...data.code].every((c) => RANDOM_CODE_ALPHABET.includes(c))).toBe(true);
    expect(data).toMatchObject({
      url,
      credit: 'Unknown',
      modifiedAt: null,
      managementCode: null,
      fullURL: `${SHORTENER_URL}/${data.code}`,
    });
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(Number.isInteger(data.pos) && data.pos >= 1).toBe(true);
  });

  it('numbers entries in creation order (pos)', async () => {
    const a = await create(h, { url: uniqueUrl() });
    const b = await create(h, { url: uniqueUrl() });
    expect(b.body.data.pos).toBeGreaterThan(a.body.data.pos);
  });

  it('accepts a custom code and credit', async () => {
    const res = await create(h, { url: uniqueUrl(), code: 'My-Custom-1', credit: 'Fox 🦊' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      code: 'My-Custom-1',
      credit: 'Fox 🦊',
      fullURL: `${SHORTENER_URL}/My-Custom-1`,
    });
  });

  it('accepts a 50-character code and a 50-character credit', async () => {
    const res = await create(h, { url: uniqueUrl(), code: 'c'.repeat(50), credit: '🦊'.repeat(50) });
    expect(res.status).toBe(201);
    expect(res.body.data.credit).toBe('🦊'.repeat(50));
  });

  it('returns a management code once with ?editable=true and stores only its hash', async () => {
    const res = await create(h, { url: uniqueUrl() }, { editable: true });
    expect(res.status).toBe(201);
    const managementCode = res.body.data.managementCode;
    expect(typeof managementCode).toBe('string');
    expect(managementCode!.length).toBeGreaterThanOrEqual(32);
    const rows: { management_code_hash: string }[] = await h.dataSource.query(
      'SELECT management_code_hash FROM short_urls WHERE code = ?',
      [res.body.data.code],
    );
    expect(rows[0]!.management_code_hash).toBe(hashManagementCode(managementCode!));
    expect(rows[0]!.management_code_hash).not.toContain(managementCode);
    const again = await request(`${h.url}/${res.body.data.code}.json`, { headers: { authorization: h.key } });
    expect(again.text).not.toContain(managementCode);
  });

  it('refuses a field it does not take with 400 1017 naming it, creating nothing; what the official client sends passes', async () => {
    const url = uniqueUrl();
    for (const field of ['editable', 'expires', 'customCode']) {
      const res = await create(h, { url, [field]: false });
      expect([res.status, res.body.code], field).toEqual([400, 1017]);
      expect(res.body.error, field).toContain(`"${field}"`);
    }
    const rows: unknown[] = await h.dataSource.query('SELECT pos FROM short_urls WHERE url = ?', [url]);
    expect(rows).toHaveLength(0);
    // yiffy's Shortener#create: {url, code, credit} (undefined ones left out) and ?editable=.
    const yiffy = await request(
      `${h.url}/create?editable=true`,
      jsonInit('POST', { url, credit: 'Yiffy' }, { authorization: h.key }),
    );
    expect(yiffy.status).toBe(201);
  });

  it('is editable by default, as the original server was (its official client sends no parameter)', async () => {
    const res = await create(h, { url: uniqueUrl() });
    expect(res.status).toBe(201);
    expect(res.body.data.managementCode).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/));
  });

  // `true`/`1` and `false`/`0` (docs/api.md §2); absent is editable, as the original server made it.
  it.each([
    ['editable=true', true],
    ['editable=1', true],
    ['editable=false', false],
    ['editable=0', false],
    ['other=false', true],
  ])('reads ?%s as editable=%s', async (query, editable) => {
    const res = await request(
      `${h.url}/create?${query}`,
      jsonInit('POST', { url: uniqueUrl() }, { authorization: h.key }),
    );
    expect(res.status).toBe(201);
    expect(typeof res.body.data.managementCode).toBe(editable ? 'string' : 'object');
  });

  it.each([
    'editable=FALSE',
    'editable=no',
    'editable=2',
    'editable',
    'editable=',
    'editable=%20false',
    'editable=true&editable=true',
    'editable=false&editable=true',
    // Bracketed forms were once ignored (an editable link for `editable[]=false`): issue 34.
    'editable[]=false',
    'editable[x]=false',
  ])('refuses ?%s with 400 1057, making nothing', async (query) => {
    const url = uniqueUrl();
    const res = await request(`${h.url}/create?${query}`, jsonInit('POST', { url }, { authorization: h.key }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 1057 });
    expect(res.body.error).toContain('editable');
    const rows: unknown[] = await h.dataSource.query('SELECT pos FROM short_urls WHERE url = ?', [url]);
    expect(rows).toHaveLength(0);
  });

  it("with ?editable=false answers 200 with the url's existing non-editable entry (managementCode null)", async () => {
    const url = uniqueUrl();
    const first = await create(h, { url, code: 'first-of-url' }, { editable: false });
    expect(first.status).toBe(201);
    const second = await create(h, { url }, { editable: false });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    // A different custom code does not make a second entry for the same url.
    const third = await create(h, { url, code: 'another-code' }, { editable: false });
    expect(third.status).toBe(200);
    expect(third.body.data.code).toBe('first-of-url');
  });

  it('never hands out an editable entry: an editable create of a known url makes its own entry with its own code', async () => {
    const url = uniqueUrl();
    const fixed = await create(h, { url }, { editable: false });
    const first = await create(h, { url });
    const second = await create(h, { url }, { editable: true });
    for (const res of [first, second]) {
      expect(res.status).toBe(201);
      expect(typeof res.body.data.managementCode).toBe('string');
    }
    const codes = new Set([fixed, first, second].map((res) => res.body.data.code));
    expect(codes.size).toBe(3);
    expect(first.body.data.managementCode).not.toBe(second.body.data.managementCode);
    // The non-editable entry is still the one a non-editable create is given.
    const again = await create(h, { url }, { editable: false });
    expect([again.status, again.body.data.code]).toEqual([200, fixed.body.data.code]);
  });

  it('cannot be hijacked: an editable entry of one key is never given to another key, whose link keeps its destination', async () => {
    const { key: otherKey } = await h.apiKeys.create({
      name: 'victim',
      contact: 'v@example.com',
      flags: ['shortener'],
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
    });
    const url = uniqueUrl('popular-page');
    const attacker = await create(h, { url }, { editable: true });
    expect(attacker.status).toBe(201);
    const victim = await create(h, { url }, { headers: { authorization: otherKey } });
    expect(victim.status).toBe(201);
    expect(victim.body.data.code).not.toBe(attacker.body.data.code);
    expect(typeof victim.body.data.managementCode).toBe('string');
    const moved = await request(
      `${h.url}/${attacker.body.data.code}`,
      jsonInit(
        'PATCH',
        { managementCode: attacker.body.data.managementCode, url: 'https://phishing.example/login' },
        { authorization: h.key },
      ),
    );
    expect(moved.status).toBe(200);
    expect((await request(`${h.url}/${victim.body.data.code}`)).headers.get('location')).toBe(url);
    expect((await request(`${h.url}/${attacker.body.data.code}`)).headers.get('location')).toBe(
      'https://phishing.example/login',
    );
  });

  it('accepts a form-encoded body', async () => {
    const url = uniqueUrl();
    const res = await request(`${h.url}/create`, {
      method: 'POST',
      headers: { authorization: h.key, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url, code: 'form-code', credit: 'Form' }).toString(),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ url, code: 'form-code', credit: 'Form' });
  });

  it('treats codes as case-sensitive: abc and ABC are different entries', async () => {
    const lower = await create(h, { url: uniqueUrl('lower'), code: 'abc' });
    const upper = await create(h, { url: uniqueUrl('upper'), code: 'ABC' });
    expect(lower.status).toBe(201);
    expect(upper.status).toBe(201);
    const lowerJson = await request(`${h.url}/abc.json`, { headers: { authorization: h.key } });
    const upperJson = await request(`${h.url}/ABC.json`, { headers: { authorization: h.key } });
    expect(lowerJson.body.data.url).toBe(lower.body.data.url);
    expect(upperJson.body.data.url).toBe(upper.body.data.url);
    expect((await request(`${h.url}/abc`)).headers.get('location')).toBe(lower.body.data.url);
    expect((await request(`${h.url}/ABC`)).headers.get('location')).toBe(upper.body.data.url);
  });
});

describe('POST /create — validation', () => {
  it('refuses a code over 50 characters (422 1070)', async () => {
    const res = await create(h, { url: uniqueUrl(), code: 'a'.repeat(51) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 1070 });
  });

  it.each([
    ['has space'],
    ['under_score'],
    ['dot.json'],
    ['plus+'],
    ['ümlaut'],
    ['slash/x'],
    [123],
    [true],
    [['a']],
    [{ a: 1 }],
  ])('refuses code %j (422 1071)', async (code) => {
    const res = await create(h, { url: uniqueUrl(), code });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1071);
  });

  it('refuses an empty code (422 1071) instead of making a random one; null still asks for one', async () => {
    const url = uniqueUrl();
    const empty = await create(h, { url, code: '' });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ success: false, code: 1071 });
    expect(empty.body.error).toContain('empty');
    const form = await request(`${h.url}/create`, {
      method: 'POST',
      headers: { authorization: h.key, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url, code: '' }).toString(),
    });
    expect([form.status, form.body.code]).toEqual([422, 1071]);
    const rows: unknown[] = await h.dataSource.query('SELECT pos FROM short_urls WHERE url = ?', [url]);
    expect(rows).toHaveLength(0);
    const random = await create(h, { url, code: null });
    expect(random.status).toBe(201);
    expect(random.body.data.code).toHaveLength(8);
  });

  it.each([
    ['maxVisits', '5', 1082],
    ['maxVisits', '', 1082],
    ['maxVisits', true, 1082],
    ['maxVisits', [5], 1082],
    ['expiresAt', 1_900_000_000_000, 1081],
    ['expiresAt', true, 1081],
  ])(
    'refuses %s %j of the wrong JSON type with its own code, never reading it as another type',
    async (field, value, code) => {
      const url = uniqueUrl();
      const res = await create(h, { url, [field]: value });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code });
      const rows: unknown[] = await h.dataSource.query('SELECT pos FROM short_urls WHERE url = ?', [url]);
      expect(rows).toHaveLength(0);
    },
  );

  it('refuses a code in use (409 1072)', async () => {
    expect((await create(h, { url: uniqueUrl(), code: 'taken' })).status).toBe(201);
    const res = await create(h, { url: uniqueUrl(), code: 'taken' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(1072);
  });

  it.each([['create'], ['delete'], ['online'], ['metrics'], ['check'], ['Create'], ['METRICS']])(
    'treats reserved word %s as in use (409 1072)',
    async (code) => {
      const res = await create(h, { url: uniqueUrl(), code });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(1072);
    },
  );

  it.each([[undefined], [''], [42], [null], [['https://example.com/']]])('refuses url %j (422 1073)', async (url) => {
    const res = await create(h, url === undefined ? {} : { url });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1073);
  });

  it.each([['x'.repeat(51)], ['🦊'.repeat(51)], [42], [{ name: 'x' }]])(
    'refuses credit %j (422 1074)',
    async (credit) => {
      const res = await create(h, { url: uniqueUrl(), credit });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(1074);
    },
  );

  // NUL and other control characters, and lone surrogates (which MySQL would store as U+FFFD, so the
  // stored credit would differ from the one answered), are not text a credit can hold.
  it.each([['a\u0000b'], ['line\r\nbreak'], ['bell\u0007'], ['c1\u0085'], ['lone \ud800 surrogate']])(
    'refuses credit %j with control characters or broken unicode (422 1074)',
    async (credit) => {
      const res = await create(h, { url: uniqueUrl(), credit });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code: 1074 });
    },
  );

  // Bidi controls reorder what a reader sees around the credit (an "evil" credit that renders as
  // something else), as they are refused in target URLs.
  const BIDI_CONTROLS = [
    '\u202A',
    '\u202B',
    '\u202C',
    '\u202D',
    '\u202E',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200E',
    '\u200F',
    '\u061C',
  ];
  it.each(
    BIDI_CONTROLS.map((control) => [control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0'), control]),
  )('refuses a credit with the bidi control U+%s (422 1074)', async (_name, control) => {
    const res = await create(h, { url: uniqueUrl(), credit: `Fox${control}gpj.exe` });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 1074 });
    expect(res.body.error).toContain('bidirectional controls');
  });

  // The line and paragraph separators break lines as LF does (the credit rule the images import shares).
  it.each([['line\u2028separator'], ['paragraph\u2029separator']])(
    'refuses credit %j with a line or paragraph separator (422 1074)',
    async (credit) => {
      const res = await create(h, { url: uniqueUrl(), credit });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code: 1074 });
    },
  );

  it('keeps accepting emoji sequences joined by zero-width joiners and right-to-left text', async () => {
    for (const credit of ['👨‍👩‍👧 family', 'שלום', 'مرحبا']) {
      const res = await create(h, { url: uniqueUrl(), credit });
      expect(res.status, credit).toBe(201);
      expect(res.body.data.credit).toBe(credit);
    }
  });

  it('answers 1026 for a malformed JSON body and treats a missing body as a missing url', async () => {
    const bad = await request(`${h.url}/create`, {
      method: 'POST',
      headers: { authorization: h.key, 'content-type': 'application/json' },
      body: '{"url":',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(1026);
    const empty = await request(`${h.url}/create`, { method: 'POST', headers: { authorization: h.key } });
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe(1073);
  });

  it('answers 405 with Allow for another method on /create', async () => {
    const res = await request(`${h.url}/create`, jsonInit('PUT', {}, { authorization: h.key }));
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toContain('POST');
  });
});
