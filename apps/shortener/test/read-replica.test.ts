import { loadBaseConfig } from '@pawlink/service-kit';
import { startTcpProxy, type TcpProxy } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

/*
 * DB_READ_HOST/DB_READ_PORT (ADR 0019): the reader is the same MariaDB behind a TCP proxy, so the
 * answers are the writer's (behaviour), and cutting the proxy shows which routes read the reader.
 */

let proxy: TcpProxy;
let h: Harness;
beforeAll(async () => {
  const writer = loadBaseConfig(process.env).database;
  proxy = await startTcpProxy({ host: writer.host, port: writer.port });
  h = await startHarness('sh-reader', { DB_READ_HOST: proxy.host, DB_READ_PORT: String(proxy.port) });
});
afterAll(async () => {
  proxy?.restore();
  await h?.close();
  await proxy?.close();
});

const keyed = () => ({ headers: { authorization: h.key } });

describe('with a reader', () => {
  it('answers /:code.json and /:code/stats of a link created a moment before', async () => {
    const url = uniqueUrl();
    const created = await create(h, { url });
    expect(created.status).toBe(201);
    const { code } = created.body.data;
    const json = await request(`${h.url}/${code}.json`, keyed());
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ success: true, data: { code, url } });
    const stats = await request(`${h.url}/${code}/stats`, keyed());
    expect(stats.status).toBe(200);
  });

  it('reads only /:code.json and /:code/stats there: with the reader gone they answer 503 1004, while creates, edits, redirects and listings go on', async () => {
    const before = await create(h, { url: uniqueUrl() });
    expect((await request(`${h.url}/${before.body.data.code}.json`, keyed())).status).toBe(200);
    proxy.cut();
    try {
      for (const path of [`/${before.body.data.code}.json`, `/${before.body.data.code}/stats`]) {
        const res = await request(`${h.url}${path}`, keyed());
        expect(res.status, path).toBe(503);
        expect(res.body, path).toMatchObject({ success: false, code: 1004 });
      }
      const url = uniqueUrl();
      const created = await create(h, { url }, { editable: true });
      expect(created.status).toBe(201);
      const { code } = created.body.data;
      const managementCode = created.body.data.managementCode!;
      const edited = await request(`${h.url}/${code}`, {
        method: 'PATCH',
        headers: { authorization: h.key, 'content-type': 'application/json' },
        body: JSON.stringify({ managementCode, credit: 'Edited' }),
      });
      expect(edited.status).toBe(200);
      const redirect = await request(`${h.url}/${code}`);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe(url);
      const listing = await request(`${h.url}/links`, keyed());
      expect(listing.status).toBe(200);
    } finally {
      proxy.restore();
    }
    expect((await request(`${h.url}/${before.body.data.code}.json`, keyed())).status).toBe(200);
  });
});
