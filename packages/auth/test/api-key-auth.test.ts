import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, type TestContext } from '@pawlink/test-kit';
import { startProbeApp } from './probe-app.js';

let ctx: TestContext;
let probe: Awaited<ReturnType<typeof startProbeApp>>;
const unlimited = { rateLimitRoute: 0, rateLimitGlobal: 0 };

beforeAll(async () => {
  ctx = await createTestContext('auth');
  probe = await startProbeApp(ctx);
});

afterAll(async () => {
  await probe.close();
  await ctx.cleanup();
});

const get = (path: string, authorization?: string) =>
  request(`${probe.url}${path}`, { headers: authorization ? { authorization } : {} });

describe('API key middleware', () => {
  it('1013 without a key', async () => {
    const res = await get('/probe');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1013);
  });

  it('1010 for an unknown or malformed key', async () => {
    for (const key of ['pl_nope', 'Bearer pl_nope', 'x'.repeat(300), 'Bearer']) {
      const res = await get('/probe', key);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(1010);
    }
  });

  it('accepts the key raw and as a Bearer token', async () => {
    const { key, record } = await probe.keys.create({
      name: 'ok',
      contact: 'ok@example.com',
      flags: ['thumbs'],
      ...unlimited,
    });
    for (const header of [key, `Bearer ${key}`, `bearer ${key}`]) {
      const res = await get('/probe', header);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, keyId: record.id });
    }
  });

  it('stores only a hash of the key', async () => {
    const { key, record } = await probe.keys.create({ name: 'hash', contact: 'h', flags: ['thumbs'] });
    expect(record.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(record.keyHash).not.toContain(key);
    expect(JSON.stringify(await probe.keys.findById(record.id))).not.toContain(key);
  });

  it('1022 for a key without the flag', async () => {
    const { key } = await probe.keys.create({ name: 'noflag', contact: 'n', flags: ['shortener'], ...unlimited });
    const res = await get('/probe', key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(1022);
  });

  it('1011 for an inactive (revoked) key', async () => {
    const { key, record } = await probe.keys.create({ name: 'revoked', contact: 'r', flags: ['thumbs'], ...unlimited });
    await probe.keys.update(record.id, { active: false });
    const res = await get('/probe', key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1011);
  });

  it('1012 with the reason for a disabled key, and works again once enabled', async () => {
    const { key, record } = await probe.keys.create({
      name: 'disabled',
      contact: 'd',
      flags: ['thumbs'],
      ...unlimited,
    });
    await probe.keys.update(record.id, { disabled: true, disabledReason: 'abuse' });
    const res = await get('/probe', key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1012, extra: { reason: 'abuse' } });
    await probe.keys.update(record.id, { disabled: false, disabledReason: null });
    expect((await get('/probe', key)).status).toBe(200);
  });

  it('lets anonymous requests through optional auth but still rejects bad keys', async () => {
    expect((await get('/open')).body).toEqual({ success: true, keyId: null });
    expect((await get('/open', 'pl_bad')).body.code).toBe(1010);
  });

  it('records when a key was last used', async () => {
    const { key, record } = await probe.keys.create({ name: 'used', contact: 'u', flags: ['thumbs'], ...unlimited });
    expect(record.lastUsedAt).toBeNull();
    await get('/probe', key);
    await expect.poll(async () => (await probe.keys.findById(record.id))?.lastUsedAt).toBeInstanceOf(Date);
  });
});
