import { createRedis } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness, type Instance } from './support.js';

// An instance whose Redis connection is down: the cache is an optimisation, MySQL the truth.
let h: Harness;
let broken: RedisClient;
let degraded: Instance;
beforeAll(async () => {
  h = await startHarness('sh-outage');
  broken = createRedis(h.config.redis, { name: 'shortener-test-broken' });
  await broken.ping();
  broken.disconnect();
  degraded = await h.startInstance({ redis: broken });
});
afterAll(async () => {
  await h.close();
});

describe('with Redis unavailable to an instance', () => {
  it('still creates, redirects from MySQL, edits and deletes', async () => {
    const url = uniqueUrl();
    const created = await create({ url: degraded.url, key: h.key }, { url }, { editable: true });
    expect(created.status).toBe(201);
    const code = created.body.data.code;
    const managementCode = created.body.data.managementCode!;

    degraded.cache.clear();
    const redirect = await request(`${degraded.url}/${code}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(url);

    const next = uniqueUrl('next');
    const patch = await request(
      `${degraded.url}/${code}`,
      jsonInit('PATCH', { managementCode, url: next }, { authorization: h.key }),
    );
    expect(patch.status).toBe(200);
    expect((await request(`${degraded.url}/${code}`)).headers.get('location')).toBe(next);

    const del = await request(
      `${degraded.url}/${code}`,
      jsonInit('DELETE', { managementCode }, { authorization: h.key }),
    );
    expect(del.status).toBe(204);
    expect((await request(`${degraded.url}/${code}`)).status).toBe(404);
  });

  it('answers cold redirects, unknown codes and previews from MySQL though the lookup limit cannot be asked', async () => {
    const url = uniqueUrl();
    const { body } = await create({ url: h.url, key: h.key }, { url, credit: 'Offline' });
    const code = body.data.code;
    const redirect = await request(`${degraded.url}/${code}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(url);
    const preview = await request(`${degraded.url}/${code}+`);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('<dd id="credit">Offline</dd>');
    expect((await request(`${degraded.url}/nope${Date.now().toString(36)}`)).status).toBe(404);
    expect((await request(`${degraded.url}/nope${Date.now().toString(36)}+`)).status).toBe(404);
  });

  it('answers visits and stats from what MySQL holds', async () => {
    const { body } = await create({ url: h.url, key: h.key }, { url: uniqueUrl() });
    const code = body.data.code;
    const json = await request(`${degraded.url}/${code}.json`, { headers: { authorization: h.key } });
    expect(json.status).toBe(200);
    expect(json.body.data.visits).toBe(0);
    const stats = await request(`${degraded.url}/${code}/stats`, { headers: { authorization: h.key } });
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      success: true,
      data: {
        code,
        visits: 0,
        days: [],
        referrers: [],
        countries: [],
        browsers: [],
        os: [],
        devices: { desktop: 0, mobile: 0, tablet: 0, other: 0 },
        rules: [],
        default: 0,
      },
    });
  });
});
