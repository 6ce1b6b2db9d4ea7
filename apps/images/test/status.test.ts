import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('GET /status (images)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-status');
    // A category named like the route must not take it.
    await h.addCategory('status');
    await h.addImage('status', 1);
  });
  afterAll(async () => h.close());

  it('is the status, not a category, and lists the images buckets', async () => {
    const res = await request(`${h.url}/status`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { service: 'images', readOnly: false, key: null } });
    expect(res.body).not.toHaveProperty('images');
    expect(Object.keys(res.body.data.limits).sort()).toEqual(['global', 'images.bulk', 'images.info', 'images.random', 'status']);
  });

  it('describes a bulk key with its bulk limit', async () => {
    const key = await h.key(['images_bulk'], 250);
    const res = await request(`${h.url}/status`, { headers: { authorization: key } });
    expect(res.body.data.key).toMatchObject({ flags: ['images_bulk'], bulkLimit: 250, active: true });
    expect(res.text).not.toContain(key);
  });

  it('refuses an invalid key with 1010', async () => {
    const res = await request(`${h.url}/status`, { headers: { authorization: 'pl_not_a_key' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1010);
  });
});

describe('GET /metrics on the public images URL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-metrics');
  });
  afterAll(async () => h.close());

  it('is an unknown route (1024), not a category', async () => {
    const res = await request(`${h.url}/metrics`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1024 });
  });
});
