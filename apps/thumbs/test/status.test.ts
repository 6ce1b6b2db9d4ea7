import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThumbs, type ThumbsHarness } from './helpers.js';

describe('GET /status (thumbs)', () => {
  let h: ThumbsHarness;
  beforeAll(async () => {
    h = await startThumbs();
  });
  afterAll(async () => h.close());

  it('is not a post id: it describes the key and the thumbs buckets', async () => {
    const res = await request(`${h.url}/status`, { headers: h.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { service: 'thumbs', readOnly: false, key: { flags: ['thumbs'], active: true } } });
    expect(Object.keys(res.body.data.limits).sort()).toEqual(['global', 'status', 'thumbs.admin', 'thumbs.admin-login', 'thumbs.check', 'thumbs.create', 'thumbs.info']);
    expect(res.text).not.toContain(h.key);
  });

  it('needs no key, and a key without the thumbs flag still sees its own status', async () => {
    expect((await request(`${h.url}/status`)).body.data.key).toBeNull();
    const res = await request(`${h.url}/status`, { headers: { authorization: h.keyWithoutFlag } });
    expect(res.status).toBe(200);
    expect(res.body.data.key.flags).toEqual(['shortener']);
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
