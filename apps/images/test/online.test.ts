import { setReadOnly } from '@pawlink/service-kit';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('GET /online', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-online');
    await h.addCategory('furry.hug');
    await h.addImage('furry.hug', 1);
  });
  afterAll(async () => h.close());

  it('answers success and uptime with a request id', async () => {
    const res = await request(`${h.url}/online`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, uptime: expect.any(Number), readOnly: false });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('reports read-only mode, which does not affect the images endpoints', async () => {
    await setReadOnly(h.redis, h.config.redis.prefix, ['images'], true);
    await h.readOnly.refresh();
    try {
      expect((await request(`${h.url}/online`)).body.readOnly).toBe(true);
      expect((await request(`${h.url}/furry.hug`)).status).toBe(200);
      expect((await request(`${h.url}/categories`)).status).toBe(200);
    } finally {
      await setReadOnly(h.redis, h.config.redis.prefix, ['images'], false);
      await h.readOnly.refresh();
    }
  });
});
