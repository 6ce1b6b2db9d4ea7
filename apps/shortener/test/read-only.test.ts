import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
let entry: { code: string; managementCode: string; url: string };
beforeAll(async () => {
  h = await startHarness('sh-readonly');
  const url = uniqueUrl();
  const { body } = await create(h, { url }, { editable: true });
  entry = { code: body.data.code, managementCode: body.data.managementCode!, url };
  await h.setReadOnly(true);
});
afterAll(async () => {
  await h.close();
});

describe('read-only mode', () => {
  it('answers 503 1003 on create, PATCH, DELETE and POST /delete', async () => {
    const auth = { authorization: h.key };
    const responses = [
      await create(h, { url: uniqueUrl() }),
      await request(
        `${h.url}/${entry.code}`,
        jsonInit('PATCH', { managementCode: entry.managementCode, credit: 'x' }, auth),
      ),
      await request(`${h.url}/${entry.code}`, jsonInit('DELETE', { managementCode: entry.managementCode }, auth)),
      await request(
        `${h.url}/delete`,
        jsonInit('POST', { code: entry.code, managementCode: entry.managementCode }, auth),
      ),
    ];
    for (const res of responses) {
      expect(res.status).toBe(503);
      expect((res.body as { code: number }).code).toBe(1003);
    }
  });

  it('keeps redirects, previews and the JSON form working', async () => {
    const redirect = await request(`${h.url}/${entry.code}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(entry.url);
    expect((await request(`${h.url}/${entry.code}+`)).status).toBe(200);
    const json = await request(`${h.url}/${entry.code}.json`, { headers: { authorization: h.key } });
    expect(json.status).toBe(200);
    expect(json.body.data.url).toBe(entry.url);
  });

  it('writes again once switched off', async () => {
    await h.setReadOnly(false);
    expect((await create(h, { url: uniqueUrl() })).status).toBe(201);
  });
});
