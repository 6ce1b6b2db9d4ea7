import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, type TestContext } from '@pawlink/test-kit';
import { startProbeApp } from './probe-app.js';

let ctx: TestContext;
let first: Awaited<ReturnType<typeof startProbeApp>>;
let second: Awaited<ReturnType<typeof startProbeApp>>;

beforeAll(async () => {
  ctx = await createTestContext('ratelimit');
  const limits = { probe: { limit: 3, windowMs: 2_000 }, global: { limit: 5, windowMs: 60_000 } };
  first = await startProbeApp(ctx, limits);
  second = await startProbeApp(ctx, limits);
});

afterAll(async () => {
  await first.close();
  await second.close();
  await ctx.cleanup();
});

const call = (base: string, key: string) => request(`${base}/probe`, { headers: { authorization: key } });

describe('rate limits', () => {
  it('count down, answer 1000 with info and headers, then reset with the window', async () => {
    const { key } = await first.keys.create({ name: 'rl', contact: 'c', flags: ['thumbs'], rateLimitGlobal: 0 });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(first.url, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-bucket')).toBe('probe');
      expect(Number(res.headers.get('x-ratelimit-reset-after'))).toBeLessThanOrEqual(2);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await call(first.url, key);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      success: false,
      code: 1000,
      info: { limit: 3, remaining: 0, bucket: 'probe', global: false },
    });
    expect(['1', '2']).toContain(limited.headers.get('retry-after'));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    await expect.poll(async () => (await call(first.url, key)).status, { timeout: 5_000, interval: 200 }).toBe(200);
  });

  it('answers 1001 when the global bucket is exhausted', async () => {
    const { key } = await first.keys.create({ name: 'global', contact: 'c', flags: ['thumbs'], rateLimitRoute: 0 });
    for (let i = 0; i < 5; i++) expect((await call(first.url, key)).status).toBe(200);
    const limited = await call(first.url, key);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 1001, info: { limit: 5, bucket: 'global', global: true } });
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is shared by two instances on the same Redis', async () => {
    const { key } = await first.keys.create({ name: 'shared', contact: 'c', flags: ['thumbs'], rateLimitRoute: 0 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(i % 2 === 0 ? first.url : second.url, key)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('limits anonymous clients per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(`${first.url}/open`)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses[3]).toBe(429);
  });
});

describe('invalid API keys per client IP (bucket auth.invalid)', () => {
  let guarded: Awaited<ReturnType<typeof startProbeApp>>;
  let guardedToo: Awaited<ReturnType<typeof startProbeApp>>;
  let lookups = 0;
  beforeAll(async () => {
    const limits = { invalidKeys: { limit: 3, windowMs: 60_000 }, keyCacheMs: 60_000 };
    guarded = await startProbeApp(ctx, limits);
    guardedToo = await startProbeApp(ctx, limits);
    const findByKey = guarded.keys.findByKey.bind(guarded.keys);
    guarded.keys.findByKey = (key: string) => {
      lookups++;
      return findByKey(key);
    };
  });
  afterAll(async () => {
    await guarded.close();
    await guardedToo.close();
  });

  it('answers 1010 up to the limit, then 429 1000 without looking keys up, on every instance; trusted keys still pass', async () => {
    const { key } = await guarded.keys.create({
      name: 'good',
      contact: 'c',
      flags: ['thumbs'],
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
    });
    // Trusted before the flood: a key found valid is answered from the instance's cache.
    expect((await call(guarded.url, key)).status).toBe(200);
    for (const bad of ['pl_guess1', 'pl_guess2', 'x'.repeat(300)]) {
      const res = await call(guarded.url, bad);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(1010);
    }
    const lookupsBefore = lookups;
    for (const base of [guarded.url, guardedToo.url]) {
      const res = await call(base, 'pl_guess4');
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({
        success: false,
        code: 1000,
        info: { bucket: 'auth.invalid', limit: 3, remaining: 0 },
      });
      expect(res.headers.get('x-ratelimit-bucket')).toBe('auth.invalid');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(lookups).toBe(lookupsBefore);
    expect((await call(guarded.url, key)).status).toBe(200);
    const noKey = await request(`${guarded.url}/probe`);
    expect(noKey.body.code).toBe(1013);
  });
});

describe('invalid API keys, counted atomically', () => {
  // Its own prefix: the invalid-key window of this address is fresh.
  let own: TestContext;
  let app: Awaited<ReturnType<typeof startProbeApp>>;
  let lookups = 0;
  beforeAll(async () => {
    own = await createTestContext('ratelimit-atomic');
    app = await startProbeApp(own, { invalidKeys: { limit: 30, windowMs: 60_000 }, keyCacheMs: 100 });
    const findByKey = app.keys.findByKey.bind(app.keys);
    app.keys.findByKey = (key: string) => {
      lookups++;
      return findByKey(key);
    };
  });
  afterAll(async () => {
    await app.close();
    await own.cleanup();
  });

  it('300 concurrent made-up keys cost exactly the limit of lookups; the rest are 429 before any lookup', async () => {
    const { key } = await app.keys.create({
      name: 'trusted',
      contact: 'c',
      flags: ['thumbs'],
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
    });
    expect((await call(app.url, key)).status).toBe(200);
    lookups = 0;
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => call(app.url, `pl_made-up-${i}`)));
    expect(lookups).toBe(30);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(270);
    // A key this instance found valid is not locked out by them, even once its cache entry is stale.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await call(app.url, key)).status).toBe(200);
  });
});

describe('a valid key’s first burst', () => {
  // Its own prefix and a fresh instance: nothing is known of the key, and the address has its whole allowance.
  let own: TestContext;
  let app: Awaited<ReturnType<typeof startProbeApp>>;
  let lookups = 0;
  beforeAll(async () => {
    own = await createTestContext('ratelimit-burst');
    // The production allowance (30 a minute) and key cache (2 s).
    app = await startProbeApp(own, { invalidKeys: { limit: 30, windowMs: 60_000 }, keyCacheMs: 2_000 });
    const findByKey = app.keys.findByKey.bind(app.keys);
    app.keys.findByKey = (key: string) => {
      lookups++;
      return findByKey(key);
    };
  });
  afterAll(async () => {
    await app.close();
    await own.cleanup();
  });

  it('100 concurrent first requests with a valid key all succeed: they share one lookup and keep no invalid-key slot', async () => {
    const { key } = await app.keys.create({
      name: 'burst',
      contact: 'c',
      flags: ['thumbs'],
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
    });
    const answers = await Promise.all(Array.from({ length: 100 }, () => call(app.url, key)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(lookups).toBe(1);
    // The allowance is whole: 30 unknown keys are still answered 1010, the 31st 429.
    const unknown = await Promise.all(Array.from({ length: 31 }, (_, i) => call(app.url, `pl_unknown-${i}`)));
    expect(unknown.filter((a) => a.status === 401)).toHaveLength(30);
    expect(unknown.filter((a) => a.status === 429)).toHaveLength(1);
  });
});
