import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonResponse } from '@pawlink/test-kit';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-delete');
});
afterAll(async () => {
  await h.close();
});

async function editable(): Promise<{ code: string; managementCode: string; url: string; pos: number }> {
  const url = uniqueUrl();
  const { body } = await create(h, { url }, { editable: true });
  return { code: body.data.code, managementCode: body.data.managementCode!, url, pos: body.data.pos };
}

type Deleter = (code: string, managementCode: unknown, headers?: Record<string, string>) => Promise<JsonResponse<any>>;

const viaDelete: Deleter = (code, managementCode, headers = { authorization: h.key }) =>
  request(`${h.url}/${code}`, jsonInit('DELETE', managementCode === undefined ? {} : { managementCode }, headers));
const viaAlias: Deleter = (code, managementCode, headers = { authorization: h.key }) =>
  request(
    `${h.url}/delete`,
    jsonInit('POST', managementCode === undefined ? { code } : { code, managementCode }, headers),
  );

describe.each([
  ['DELETE /:code', viaDelete],
  ['POST /delete', viaAlias],
])('%s', (_name, remove) => {
  it('requires an API key with the shortener flag (1013, 1022)', async () => {
    const entry = await editable();
    const none = await remove(entry.code, entry.managementCode, {});
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(1013);
    const { key } = await h.apiKeys.create({ name: 'thumbs', contact: 'x@example.com', flags: ['thumbs'] });
    const noFlag = await remove(entry.code, entry.managementCode, { authorization: key });
    expect(noFlag.status).toBe(403);
    expect(noFlag.body.code).toBe(1022);
  });

  it('deletes with 204; the code then 404s as redirect, preview and JSON', async () => {
    const entry = await editable();
    expect((await request(`${h.url}/${entry.code}`)).status).toBe(302);
    const res = await remove(entry.code, entry.managementCode);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const redirect = await request(`${h.url}/${entry.code}`);
    expect(redirect.status).toBe(404);
    expect(redirect.text).toBe('Unknown short url code.');
    expect((await request(`${h.url}/${entry.code}+`)).status).toBe(404);
    const json = await request(`${h.url}/${entry.code}.json`, { headers: { authorization: h.key } });
    expect(json.status).toBe(404);
    expect(json.body.code).toBe(1075);
    const again = await remove(entry.code, entry.managementCode);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe(1075);
  });

  it('never reuses a deleted entry’s pos, and frees its url and code', async () => {
    const entry = await editable();
    expect((await remove(entry.code, entry.managementCode)).status).toBe(204);
    const again = await create(h, { url: entry.url, code: entry.code });
    expect(again.status).toBe(201);
    expect(again.body.data.pos).toBeGreaterThan(entry.pos);
    expect((await request(`${h.url}/${entry.code}`)).headers.get('location')).toBe(entry.url);
  });

  it.each([[undefined], [''], [99]])('answers 401 1076 without a management code (%j)', async (managementCode) => {
    const entry = await editable();
    const res = await remove(entry.code, managementCode);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1076);
  });

  it('refuses a field it does not take with 400 1017 naming it, and keeps the entry', async () => {
    const entry = await editable();
    const path = _name === 'DELETE /:code' ? `/${entry.code}` : '/delete';
    const body = { code: entry.code, managementCode: entry.managementCode, force: true };
    const res = await request(
      `${h.url}${path}`,
      jsonInit(path === '/delete' ? 'POST' : 'DELETE', body, { authorization: h.key }),
    );
    expect([res.status, res.body.code]).toEqual([400, 1017]);
    expect(res.body.error).toContain(path === '/delete' ? '"force"' : '"code"');
    expect((await request(`${h.url}/${entry.code}`)).status).toBe(302);
  });

  it('answers 404 1075 for an unknown code', async () => {
    const res = await remove('never-was', 'some-code');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1075);
  });

  it('answers 403 1077 for an entry without a management code', async () => {
    const { body } = await create(h, { url: uniqueUrl() }, { editable: false });
    const res = await remove(body.data.code, 'anything');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(1077);
  });

  it('answers 401 1078 for a wrong management code and keeps the entry', async () => {
    const entry = await editable();
    const res = await remove(entry.code, 'not-the-right-code-at-all-0123456789');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1078);
    expect((await request(`${h.url}/${entry.code}`)).status).toBe(302);
  });
});

describe('POST /delete', () => {
  it('answers 404 1075 when the code is missing or not a string', async () => {
    for (const body of [{ managementCode: 'x' }, { code: 5, managementCode: 'x' }]) {
      const res = await request(`${h.url}/delete`, jsonInit('POST', body, { authorization: h.key }));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(1075);
    }
  });
});
