import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('GET /status (shortener)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('status');
  });
  afterAll(async () => h.close());

  it('describes the key and the shortener buckets, never the key', async () => {
    const res = await request(`${h.url}/status`, { headers: { authorization: h.key } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { service: 'shortener', readOnly: false, key: { name: 'test', flags: ['shortener'], active: true, disabled: false } } });
    expect(Object.keys(res.body.data.limits).sort()).toEqual(['global', 'shortener.create', 'shortener.lookup', 'shortener.manage', 'shortener.read', 'shortener.stats', 'status']);
    expect(res.text).not.toContain(h.key);
  });

  it('is not a short code: anonymous requests get the anonymous limits, other methods 405', async () => {
    const res = await request(`${h.url}/status`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ key: null, limits: { 'shortener.create': { limit: 60, remaining: 60 } } });
    const patch = await request(`${h.url}/status`, { method: 'PATCH', headers: { authorization: h.key, 'content-type': 'application/json' }, body: '{}' });
    expect(patch.status).toBe(405);
    expect(patch.body.code).toBe(1025);
  });

  it('reports read-only mode', async () => {
    await h.setReadOnly(true);
    try {
      expect((await request(`${h.url}/status`)).body.data.readOnly).toBe(true);
    } finally {
      await h.setReadOnly(false);
    }
  });
});
