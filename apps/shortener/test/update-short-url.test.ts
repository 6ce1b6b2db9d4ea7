import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-patch');
});
afterAll(async () => {
  await h.close();
});

async function editable(
  credit = 'Original',
): Promise<{ code: string; managementCode: string; url: string; createdAt: string; pos: number }> {
  const url = uniqueUrl();
  const { body } = await create(h, { url, credit }, { editable: true });
  return {
    code: body.data.code,
    managementCode: body.data.managementCode!,
    url,
    createdAt: body.data.createdAt,
    pos: body.data.pos,
  };
}

const patch = (code: string, body: unknown, headers: Record<string, string> = { authorization: h.key }) =>
  request(`${h.url}/${code}`, jsonInit('PATCH', body, headers));

describe('PATCH /:code', () => {
  it('requires an API key with the shortener flag (1013, 1022)', async () => {
    const entry = await editable();
    const none = await patch(entry.code, { managementCode: entry.managementCode, credit: 'x' }, {});
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(1013);
    const { key } = await h.apiKeys.create({ name: 'thumbs', contact: 'x@example.com', flags: ['thumbs'] });
    const noFlag = await patch(
      entry.code,
      { managementCode: entry.managementCode, credit: 'x' },
      { authorization: key },
    );
    expect(noFlag.status).toBe(403);
    expect(noFlag.body.code).toBe(1022);
  });

  it('changes url and credit, sets modifiedAt and keeps code, pos and createdAt', async () => {
    const entry = await editable();
    const url = uniqueUrl('new');
    const res = await patch(entry.code, { managementCode: entry.managementCode, url, credit: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      code: entry.code,
      url,
      credit: 'Renamed',
      pos: entry.pos,
      createdAt: entry.createdAt,
    });
    expect(typeof res.body.data.modifiedAt).toBe('string');
    expect(Date.parse(res.body.data.modifiedAt)).toBeGreaterThanOrEqual(Date.parse(entry.createdAt));
    const stored = await request(`${h.url}/${entry.code}.json`, { headers: { authorization: h.key } });
    expect(stored.body.data).toEqual(res.body.data);
    const redirect = await request(`${h.url}/${entry.code}`);
    expect(redirect.headers.get('location')).toBe(url);
  });

  it('changes only the credit when only the credit is given (form body)', async () => {
    const entry = await editable();
    const res = await request(`${h.url}/${entry.code}`, {
      method: 'PATCH',
      headers: { authorization: h.key, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ managementCode: entry.managementCode, credit: 'Form credit' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ url: entry.url, credit: 'Form credit' });
  });

  it.each([[{}], [{ managementCode: '' }], [{ managementCode: 12345 }], [{ managementCode: null }]])(
    'answers 401 1076 without a management code: %j',
    async (extra) => {
      const entry = await editable();
      const res = await patch(entry.code, { credit: 'x', ...extra });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(1076);
    },
  );

  it('answers 404 1075 for an unknown code', async () => {
    const res = await patch('no-such-code', { managementCode: 'whatever', credit: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1075);
  });

  it('answers 403 1077 for an entry created with ?editable=false', async () => {
    const { body } = await create(h, { url: uniqueUrl() }, { editable: false });
    const res = await patch(body.data.code, { managementCode: 'anything-at-all', credit: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(1077);
  });

  it('answers 401 1078 for a wrong management code, and another entry’s code does not work', async () => {
    const entry = await editable();
    const other = await editable();
    const wrong = await patch(entry.code, { managementCode: `${entry.managementCode}x`, credit: 'x' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe(1078);
    const crossed = await patch(entry.code, { managementCode: other.managementCode, credit: 'x' });
    expect(crossed.status).toBe(401);
    expect(crossed.body.code).toBe(1078);
  });

  it('answers 400 1080 when nothing would change', async () => {
    const entry = await editable('Same');
    const nothing = await patch(entry.code, { managementCode: entry.managementCode });
    expect(nothing.status).toBe(400);
    expect(nothing.body.code).toBe(1080);
    const same = await patch(entry.code, { managementCode: entry.managementCode, url: entry.url, credit: 'Same' });
    expect(same.status).toBe(400);
    expect(same.body.code).toBe(1080);
  });

  it('answers 400 1017 naming a field it does not take, and applies nothing of that request', async () => {
    const entry = await editable();
    const stored = async () =>
      (await request(`${h.url}/${entry.code}.json`, { headers: { authorization: h.key } })).body.data;
    const before = await stored();
    for (const body of [
      { managementCode: entry.managementCode, credit: 'Changed', expiresIn: 60 },
      { managementCode: entry.managementCode, url: uniqueUrl('moved'), code: 'another' },
      { managementCode: entry.managementCode, editable: false },
    ]) {
      const res = await patch(entry.code, body);
      const unknown = Object.keys(body).find((key) => !['managementCode', 'url', 'credit'].includes(key))!;
      expect(res.status, unknown).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 1017 });
      expect(res.body.error).toContain(`"${unknown}"`);
    }
    expect(await stored()).toEqual(before);
    expect(before).toMatchObject({ credit: 'Original', url: entry.url, modifiedAt: null });
  });

  it('says 1017, not "No changes were provided" (1080), for a request with only an unsupported field, in a form body too', async () => {
    const entry = await editable();
    const json = await patch(entry.code, { managementCode: entry.managementCode, title: 'x' });
    expect([json.status, json.body.code]).toEqual([400, 1017]);
    expect(json.body.error).not.toMatch(/No changes/);
    const form = await request(`${h.url}/${entry.code}`, {
      method: 'PATCH',
      headers: { authorization: h.key, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ managementCode: entry.managementCode, title: 'x' }).toString(),
    });
    expect([form.status, form.body.code]).toEqual([400, 1017]);
    expect(form.body.error).toContain('"title"');
  });

  it('refuses maxVisits as a JSON string (422 1082), never reading it as a number; digits in a form body are read', async () => {
    const entry = await editable();
    const json = await patch(entry.code, { managementCode: entry.managementCode, maxVisits: '5' });
    expect([json.status, json.body.code]).toEqual([422, 1082]);
    const form = await request(`${h.url}/${entry.code}`, {
      method: 'PATCH',
      headers: { authorization: h.key, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ managementCode: entry.managementCode, maxVisits: '5' }).toString(),
    });
    expect(form.status).toBe(200);
    expect(form.body.data.maxVisits).toBe(5);
  });

  it('may point an entry at a url other entries have (1079 is retired): editable entries are never shared', async () => {
    const entry = await editable();
    const other = await editable();
    const fixed = await create(h, { url: uniqueUrl() }, { editable: false });
    for (const url of [other.url, fixed.body.data.url]) {
      const res = await patch(entry.code, { managementCode: entry.managementCode, url });
      expect(res.status).toBe(200);
      expect(res.body.data.url).toBe(url);
    }
    // The non-editable entry is still the one shared for its url.
    const again = await create(h, { url: fixed.body.data.url }, { editable: false });
    expect([again.status, again.body.data.code]).toEqual([200, fixed.body.data.code]);
  });

  it('answers 422 1073 for an invalid url and 422 1074 for a bad credit', async () => {
    const entry = await editable();
    for (const url of ['http://127.0.0.1/', 'javascript:alert(1)', 42, null]) {
      const res = await patch(entry.code, { managementCode: entry.managementCode, url });
      expect(res.status, JSON.stringify(url)).toBe(422);
      expect(res.body.code).toBe(1073);
    }
    for (const credit of ['x'.repeat(51), 7, 'nul\u0000', '\udc00', 'right\u202Eto left', 'isolate\u2066d']) {
      const res = await patch(entry.code, { managementCode: entry.managementCode, credit });
      expect(res.status, JSON.stringify(credit)).toBe(422);
      expect(res.body.code).toBe(1074);
    }
    const unchanged = await request(`${h.url}/${entry.code}.json`, { headers: { authorization: h.key } });
    expect(unchanged.body.data).toMatchObject({ url: entry.url, credit: 'Original', modifiedAt: null });
  });
});
